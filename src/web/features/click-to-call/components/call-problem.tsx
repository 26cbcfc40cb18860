/** Why the last attempt failed, in plain words, with the service's code for support. */
import { Banner } from '../../../components/ui/banner.js';
import type { ApiError } from '../../../lib/api/api-error.js';
import { describeCallProblem, type ProblemContext } from '../problem-messages.js';

export const CallProblem = ({
  error,
  context,
  otherFieldErrors,
}: {
  error: ApiError;
  context: ProblemContext;
  otherFieldErrors: string[];
}) => {
  const message = describeCallProblem(error, context);
  return (
    <Banner tone="danger" title={message.title}>
      {message.hint ? <p>{message.hint}</p> : null}
      {otherFieldErrors.length > 0 ? (
        <ul className="list-disc pl-5">
          {otherFieldErrors.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      <p className="mt-1 font-mono text-xs">Code: {error.code}</p>
    </Banner>
  );
};
