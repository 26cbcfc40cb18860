/** What the sign-in page says when a sign-in did not end in a session (`/sign-in?problem=<code>`): what happened, and what to do. */
import { signInProblemSchema, type SignInProblem } from '../../../contract/session.js';

interface ProblemMessage {
  title: string;
  advice: string;
}

const SIGN_IN_PROBLEMS: Record<SignInProblem, ProblemMessage> = {
  denied: {
    title: 'The sign-in was cancelled or refused',
    advice:
      'The identity provider did not let you through, or the sign-in was cancelled there. Sign in again; if you are refused again, ask your administrator whether your account may use Callboard.',
  },
  failed: {
    title: 'The sign-in could not be completed',
    advice: "The identity provider's answer could not be verified. Start again from the button below.",
  },
  no_role: {
    title: 'Your account has no Callboard role',
    advice:
      'You signed in at the identity provider, but your account is in no group that gives a Callboard role. Ask your administrator to add you to a Callboard group, then sign in again.',
  },
  no_subscriber: {
    title: 'No phone line matches your account',
    advice:
      "You signed in as an agent, but no phone line (subscriber) of the phone systems here has your email address. Ask your administrator to give your phone line the email you sign in with, then sign in again.",
  },
  provider_unavailable: {
    title: 'The identity provider cannot be reached',
    advice: "Callboard could not reach the company's sign-in service. Wait a moment and sign in again; if it lasts, tell your administrator.",
  },
  expired: {
    title: 'The sign-in took too long',
    advice: 'It expired, or it was started in another browser or tab. Sign in again from here.',
  },
};

/** Any code the page does not know (an older or newer service) still says that the sign-in did not work. */
const UNKNOWN_PROBLEM: ProblemMessage = {
  title: 'The sign-in did not work',
  advice: 'Sign in again; if it keeps failing, tell your administrator.',
};

/** The message for the address's `problem`, or none without one. */
export const signInProblemMessage = (code: string | null): ProblemMessage | undefined => {
  if (code === null) return undefined;
  const known = signInProblemSchema.safeParse(code);
  return known.success ? SIGN_IN_PROBLEMS[known.data] : UNKNOWN_PROBLEM;
};
