/**
 * Many browser phones in a few Chromium pages, for the benchmarks: a page on 127.0.0.1 with JsSIP
 * (bundled from node_modules at start) and `window.phones`, which registers user agents with the
 * credentials the service issued, answers every call (and a click-to-call's REFER, as the dashboard's
 * phone does), and stamps when each call rang, was answered and first heard audio (epoch ms).
 */
import { createServer, type Server } from 'node:http';
import { build } from 'esbuild';

/** What a page keeps of each call, by the phone's index. */
export interface PhoneCallTimes {
  phone: number;
  /** An INVITE reached the phone. */
  rangAt: number;
  /** The session is confirmed (the phone's own call: the far end answered). */
  confirmedAt?: number;
  /** The remote audio track's first packet (`unmute`). */
  heardAt?: number;
  /** The call was placed by the phone itself after a REFER. */
  referred: boolean;
}

/** Runs in the page: JsSIP is `window.JsSIP`. */
const PAGE_SCRIPT = `
window.phones = {
  agents: [],
  calls: [],
  async register(index, credentials) {
    const ua = new JsSIP.UA({
      sockets: [new JsSIP.WebSocketInterface(credentials.websocketURL)],
      uri: credentials.sipURI,
      authorization_user: credentials.authorizationUser,
      password: credentials.password,
      display_name: credentials.displayName,
      register: true,
      session_timers: false,
    });
    const media = { mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: credentials.iceServers } };
    const follow = (session, record) => {
      session.on('confirmed', () => { record.confirmedAt ??= Date.now(); });
      const listen = (peerconnection) =>
        peerconnection.addEventListener('track', ({ track }) => {
          if (!track.muted) record.heardAt ??= Date.now();
          track.addEventListener('unmute', () => { record.heardAt ??= Date.now(); }, { once: true });
        });
      // A call the phone places itself has its peer connection before the callback sees the session.
      if (session.connection) listen(session.connection);
      else session.on('peerconnection', ({ peerconnection }) => listen(peerconnection));
      session.on('refer', (refer) => refer.accept((next) => follow(next, window.phones.record(index, true)), media));
    };
    ua.on('newRTCSession', ({ originator, session }) => {
      if (originator !== 'remote') return;
      follow(session, window.phones.record(index, false));
      session.answer(media);
    });
    const registered = new Promise((resolve, reject) => {
      ua.once('registered', resolve);
      ua.once('registrationFailed', (event) => reject(new Error('registration of ' + credentials.sipURI + ' failed: ' + event.cause)));
    });
    ua.start();
    this.agents[index] = ua;
    await registered;
  },
  record(phone, referred) {
    const record = { phone, rangAt: Date.now(), referred };
    this.calls.push(record);
    return record;
  },
  hangUpAll() {
    for (const ua of this.agents) if (ua) ua.terminateSessions();
  },
  stop() {
    for (const ua of this.agents) if (ua) ua.stop();
  },
};
`;

export interface BrowserPhonesPage {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the page; open it in as many Chromium pages as there are groups of phones. */
export const serveBrowserPhonesPage = async (): Promise<BrowserPhonesPage> => {
  const bundle = await build({ entryPoints: ['jssip'], bundle: true, format: 'iife', globalName: 'JsSIP', minify: true, write: false, logLevel: 'silent' });
  const script = Buffer.from(`${bundle.outputFiles[0]?.text ?? ''}\n${PAGE_SCRIPT}`);
  const server: Server = createServer((request, response) => {
    if (request.url === '/phones.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Browser phones</title><script src="/phones.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

