/** How long answered callers waited: each band's count as a bar, with the same numbers in words and as a table. */
import type { AnswerTimes as AnswerTimesFigures } from '../../../../contract/service-levels.js';

/** The bands between the bounds of the distribution, each with its count. */
export const answerTimeBands = (times: AnswerTimesFigures) => [
  { label: 'within 10 s', calls: times.within10 },
  { label: '10 to 20 s', calls: times.within20 - times.within10 },
  { label: '20 to 30 s', calls: times.within30 - times.within20 },
  { label: '30 to 60 s', calls: times.within60 - times.within30 },
  { label: '1 to 2 min', calls: times.within120 - times.within60 },
  { label: 'over 2 min', calls: times.later },
];

export const AnswerTimes = ({ times }: { times: AnswerTimesFigures }) => {
  const bands = answerTimeBands(times);
  const total = bands.reduce((sum, band) => sum + band.calls, 0);
  const most = Math.max(1, ...bands.map((band) => band.calls));
  return (
    <table className="w-full text-sm tabular">
      <caption className="sr-only">Answered calls by how long the caller waited</caption>
      <thead>
        <tr>
          <th scope="col" className="px-2 py-1 text-left font-medium">
            Waited
          </th>
          <th scope="col" className="px-2 py-1 text-right font-medium">
            Calls
          </th>
          <th scope="col" className="px-2 py-1 text-right font-medium">
            Share
          </th>
          <th scope="col" className="w-1/2 px-2 py-1">
            <span className="sr-only">Bar</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {bands.map((band) => (
          <tr key={band.label} className="border-t border-line">
            <th scope="row" className="px-2 py-1 text-left font-normal">
              {band.label}
            </th>
            <td className="px-2 py-1 text-right">{band.calls}</td>
            <td className="px-2 py-1 text-right">{total === 0 ? '—' : `${Math.round((band.calls / total) * 100)} %`}</td>
            <td className="px-2 py-1" aria-hidden="true">
              <div className="h-3 rounded-sm bg-inbound" style={{ width: `${(band.calls / most) * 100}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};
