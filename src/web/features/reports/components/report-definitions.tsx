/** What each figure of the reports means, as the contract states it once for the service and the dashboard. */
import { AGENT_TIME_DEFINITIONS, EXPORT_DEFINITIONS, INTERVAL_DEFINITIONS } from '../../../../contract/reports.js';

/** The definitions name fields in `backticks`: shown as code. */
const Definition = ({ text }: { text: string }) => (
  <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>
);

const List = ({ title, definitions }: { title: string; definitions: Record<string, string> }) => (
  <div>
    <h3 className="font-semibold">{title}</h3>
    <dl className="mt-1 grid gap-x-4 gap-y-1 sm:grid-cols-[minmax(0,12rem)_1fr]">
      {Object.entries(definitions).map(([name, text]) => (
        <div key={name} className="contents">
          <dt className="font-mono text-xs sm:pt-0.5">{name}</dt>
          <dd className="text-muted">
            <Definition text={text} />
          </dd>
        </div>
      ))}
    </dl>
  </div>
);

export const ReportDefinitions = () => (
  <details className="rounded-lg border border-line bg-panel">
    <summary className="cursor-pointer px-4 py-2 text-sm font-medium">How these figures are counted</summary>
    <div className="flex flex-col gap-4 border-t border-line px-4 py-3 text-sm">
      <List title="Intervals" definitions={INTERVAL_DEFINITIONS} />
      <List title="Agents' time" definitions={AGENT_TIME_DEFINITIONS} />
      <List title="Export" definitions={EXPORT_DEFINITIONS} />
    </div>
  </details>
);
