/**
 * The BYE that hangs up an answered dialog's callee, sent through Kamailio's transaction module
 * (tm.t_uac_start) just before dlg.end_dlg.
 *
 * dlg.end_dlg sends its two BYEs one after the other, the caller's first. When the caller's answer
 * to it is handled before the second is sent, the dialog has already ended and the callee's BYE is
 * not sent at all (Kamailio 5.6 logs "terminating non-confirmed dialogs not supported"): the
 * callee's phone stays connected to nobody. On this project's test bed that was 1 end in 30 on an
 * idle machine. Sending the callee its own BYE first closes that gap; the dialog module's BYE that
 * may follow is answered 481 (no such call) by the phone, which is harmless.
 */
import type { HandledDialog } from './dialog-calls.js';

/** The dialog module's internal flag for a call set up with PRACK (DLG_IFLAG_PRACK). */
const PRACK_FLAG = 1 << 5;
/** What the dialog module adds to the caller's CSeq after a PRACK, whose CSeqs it does not keep. */
const PRACK_CSEQ_BUMP = 80;

/** A header value must stay on its line: anything with a line break is not used. */
const oneLine = (value: string) => !/[\r\n]/.test(value);

/** The route set as Kamailio lists it: `<sip:a;lr>,<sip:b;lr>`, or empty. */
const routesOf = (routeSet: string): string[] =>
  routeSet
    .split(',')
    .map((route) => route.trim())
    .filter((route) => route !== '');

/**
 * tm.t_uac_start's parameters (method, request URI, next hop, socket, headers) for a BYE to the
 * dialog's callee, as the dialog module itself would build it; undefined when the dialog lacks what
 * that takes (Kamailio did not list its legs, or its route set is a strict router's), in which case
 * dlg.end_dlg alone ends the call.
 */
export const calleeByeParams = (dialog: HandledDialog): string[] | undefined => {
  const { caller, callee } = dialog;
  if (!caller || !callee || callee.contact === '' || callee.tag === '' || caller.tag === '') return undefined;
  const callerSeq = Number(caller.cseq);
  if (!Number.isSafeInteger(callerSeq) || callerSeq < 0) return undefined;
  const routes = routesOf(callee.route_set);
  const firstRoute = routes[0]?.replace(/^<|>$/g, '');
  if (firstRoute !== undefined && !/;lr(?:[;=>]|$)/i.test(firstRoute)) return undefined;
  const cseq = callerSeq + 1 + ((dialog.iflags & PRACK_FLAG) !== 0 ? PRACK_CSEQ_BUMP : 0);
  const headers = [
    `From: <${dialog.from_uri}>;tag=${caller.tag}`,
    `To: <${dialog.to_uri}>;tag=${callee.tag}`,
    `Call-ID: ${dialog['call-id']}`,
    `CSeq: ${cseq} BYE`,
    ...(routes.length > 0 ? [`Route: ${routes.join(', ')}`] : []),
    'Max-Forwards: 70',
  ];
  const target = ['BYE', callee.contact, firstRoute ?? '.', callee.socket === '' ? '.' : callee.socket];
  if (![...target, ...headers].every(oneLine)) return undefined;
  return [...target, `${headers.join('\r\n')}\r\n`];
};
