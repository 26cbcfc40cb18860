/** Errors as values: an ApiProblem carries a stable code and becomes an RFC 9457 response. */
import {
  problemCodes,
  problemTitles,
  problemType,
  type FieldError,
  type Problem,
  type ProblemCode,
} from '../../contract/problem.js';

export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ApiProblem';
    this.status = problemCodes[code];
  }

  toBody(): Problem {
    return {
      type: problemType(this.code),
      title: problemTitles[this.code],
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(this.options.errors ? { errors: this.options.errors } : {}),
    };
  }
}
