/**
 * Keeps a failure of one part of a page to that part. Its code could not load (the service was
 * updated since the page opened, or is out of reach), or it broke: it says so in place and offers
 * to try again, and the rest of the page (the calls, the figures) keeps working. Trying again
 * mounts the part afresh, and a lazily loaded one that failed asks for its code again.
 */
import { Component, Fragment, type ReactNode } from 'react';
import { retryFailedLoads } from '../lib/lazy-component.js';
import { isLoadFailure } from '../lib/load-failure.js';
import { Button } from './ui/button.js';
import { WarningIcon } from './ui/icons.js';

interface Props {
  /** The part, as the sentence starts: "The chart", "Ending a call". */
  what: string;
  children: ReactNode;
  className?: string;
  /** For a part the user opened (a dialog): a way to put it away instead of trying again. */
  onDismiss?: () => void;
}

export class PartBoundary extends Component<Props, { error: unknown; attempt: number }> {
  override state: { error: unknown; attempt: number } = { error: undefined, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown error') };
  }

  override render() {
    const { error, attempt } = this.state;
    if (error === undefined) return <Fragment key={attempt}>{this.props.children}</Fragment>;
    return (
      <div role="alert" className={`flex flex-wrap items-center gap-2 text-sm text-danger ${this.props.className ?? ''}`}>
        <WarningIcon className="shrink-0" />
        <span>
          {isLoadFailure(error)
            ? `${this.props.what} could not load: the service may have been updated, or be out of reach.`
            : `${this.props.what} stopped working: ${error instanceof Error ? error.message : String(error)}.`}
        </span>
        <Button
          size="sm"
          onClick={() => {
            retryFailedLoads();
            this.setState({ error: undefined, attempt: attempt + 1 });
          }}
        >
          Try again
        </Button>
        {this.props.onDismiss ? (
          <Button size="sm" variant="ghost" onClick={this.props.onDismiss}>
            Close
          </Button>
        ) : null}
      </div>
    );
  }
}
