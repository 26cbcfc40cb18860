/**
 * Keeps a failure of one part of a page to that part. Its code could not load (the service was
 * updated since the page opened, or is out of reach), or it broke: it says so in place and offers
 * to try again, and the rest of the page (the calls, the figures) keeps working. Trying again
 * mounts the part afresh, and a lazily loaded one that failed asks for its code again. A part on a
 * screen nobody touches (the chart of a wall screen) tries again on its own; where trying again
 * failed to load again (a browser that keeps a failed fetch of a module), it offers a reload.
 */
import { Component, createRef, Fragment, type ReactNode } from 'react';
import { retryFailedLoads } from '../lib/lazy-component.js';
import { isLoadFailure } from '../lib/load-failure.js';
import { Button } from './ui/button.js';
import { WarningIcon } from './ui/icons.js';

interface Props {
  /** The part, as the sentence starts: "The chart", "Ending a call". */
  what: string;
  children: ReactNode;
  className?: string;
  /**
   * For a part the user opened (a dialog): the message takes the focus, and Close or Escape puts
   * the part away instead of trying again.
   */
  onDismiss?: () => void;
  /** When its code could not load, try again on its own this often. */
  retryEveryMs?: number;
}

interface State {
  error: unknown;
  attempt: number;
}

export class PartBoundary extends Component<Props, State> {
  override state: State = { error: undefined, attempt: 0 };
  private readonly message = createRef<HTMLDivElement>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown error') };
  }

  override componentDidMount() {
    if (this.state.error !== undefined) this.failed();
  }

  override componentDidUpdate(_: Props, before: State) {
    if (before.error === undefined && this.state.error !== undefined) this.failed();
  }

  private failed() {
    if (this.props.onDismiss) {
      this.message.current?.focus();
      document.addEventListener('keydown', this.onKeyDown);
    }
    if (this.props.retryEveryMs && isLoadFailure(this.state.error)) this.timer = setTimeout(this.retry, this.props.retryEveryMs);
  }

  override componentWillUnmount() {
    clearTimeout(this.timer);
    document.removeEventListener('keydown', this.onKeyDown);
  }

  private readonly retry = () => {
    clearTimeout(this.timer);
    document.removeEventListener('keydown', this.onKeyDown);
    retryFailedLoads();
    this.setState(({ attempt }) => ({ error: undefined, attempt: attempt + 1 }));
  };

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') this.props.onDismiss?.();
  };

  override render() {
    const { error, attempt } = this.state;
    if (error === undefined) return <Fragment key={attempt}>{this.props.children}</Fragment>;
    const loadFailure = isLoadFailure(error);
    return (
      <div
        ref={this.message}
        role="alert"
        tabIndex={-1}
        className={`flex flex-wrap items-center gap-2 text-sm text-danger focus:outline-none ${this.props.className ?? ''}`}
      >
        <WarningIcon className="shrink-0" />
        <span>
          {loadFailure
            ? `${this.props.what} could not load: the service may have been updated, or be out of reach.`
            : `${this.props.what} stopped working: ${error instanceof Error ? error.message : String(error)}.`}
        </span>
        <Button size="sm" onClick={this.retry}>
          Try again
        </Button>
        {loadFailure && attempt > 0 ? (
          <Button size="sm" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        ) : null}
        {this.props.onDismiss ? (
          <Button size="sm" variant="ghost" onClick={this.props.onDismiss}>
            Close
          </Button>
        ) : null}
      </div>
    );
  }
}
