/** What follows a placed call, its progress or why it failed: one module, which the form loads lazily (see click-to-call-form.tsx). */
export { CallProblem } from './call-problem.js';
export { CallProgressView } from './call-progress.js';
