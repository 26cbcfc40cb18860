/**
 * The SIP test bed: a Kamailio registrar/proxy (with the hunt groups asked for) and N baresip
 * phones on free loopback ports, each with its own directory under one temporary directory;
 * started until every phone is registered, and torn down by PID (phones first, then Kamailio)
 * however the caller ends.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJsonRpcClient, type JsonRpcCall } from '../../server/providers/kamailio/json-rpc-client.js';
import { findProgram, startProgram, type RunningProgram } from '../child-process.js';
import { freePortBlock, RTP_PORTS } from '../free-ports.js';
import { PhoneControl } from './phone-control.js';
import { startRtpengine, type RunningRtpengine } from './rtpengine-process.js';

const TEMPLATES = fileURLToPath(new URL('../../../testbed/', import.meta.url));
const INSTALL_HINT = 'apt-get install -y --no-install-recommends kamailio kamailio-websocket-modules kamailio-autheph-modules baresip-core rtpengine-daemon (npm test does)';
/** Ports per phone: SIP, the SIP port + 1 baresip also binds, and the control port. */
const PORTS_PER_PHONE = 3;

export interface PhoneSpec {
  /** SIP user, and the number other phones dial it at. */
  user: string;
  /** `auto` (default) answers every call; `manual` rings until told to answer. */
  answerMode?: 'auto' | 'manual';
  /** Writes what the phone hears and says in each call to WAV files (baresip's sndfile module), in `recordings`. */
  record?: boolean;
}

export interface SipPhone {
  readonly user: string;
  readonly uri: string;
  readonly control: PhoneControl;
  readonly process: RunningProgram;
  /** Where a recording phone writes its calls: `dump-<call>-dec.wav` heard, `-enc.wav` said. */
  readonly recordings?: string;
}

export interface SipTestbed {
  readonly rpcURL: string;
  readonly sipDomain: string;
  readonly rpc: JsonRpcCall;
  readonly phones: readonly SipPhone[];
  phone(user: string): SipPhone;
  /** The SIP URI of a user or number on this test bed's Kamailio. */
  uriOf(user: string): string;
  /** Milliseconds from the start call until every phone was registered. */
  readonly startupMs: number;
  /** Kamailio's main process, the leader of its workers' process group. */
  readonly kamailioPid: number;
  /** The tail of Kamailio's log (warnings and errors), for a failure's message. */
  kamailioLog(): string;
  /** Present when started with `webrtc`: browsers' WebSocket, the secret of their credentials, rtpengine. */
  readonly webrtc?: WebrtcSide;
  /** Stops Kamailio alone (outage drills); the phones keep running until stop(). */
  stopKamailio(): Promise<void>;
  stop(): Promise<void>;
}

/** A number that rings a group of phones at once and names its queue, as a PBX's routing script does. */
export interface HuntGroup {
  /** What callers dial (the R-URI's user). */
  number: string;
  /** The dialog variable `queue` the script sets on its calls. */
  queue: string;
  /** The SIP users rung, all at once. */
  members: readonly string[];
}

export interface WebrtcSide {
  /** Where browsers connect: SIP over WebSocket. */
  readonly websocketURL: string;
  /** The secret Kamailio's auth_ephemeral shares with the service. */
  readonly sharedSecret: string;
  /** rtpengine's ng control port on 127.0.0.1. */
  readonly rtpengineNgPort: number;
  readonly rtpengine: RunningRtpengine;
}

export interface SipTestbedOptions {
  /**
   * Browsers as phones: Kamailio also listens for SIP over WebSocket, checks browsers against
   * time-limited credentials, and sends every call's media through rtpengine (started here).
   */
  webrtc?: boolean;
  phones: readonly PhoneSpec[];
  /** Numbers that ring groups of phones (default none). */
  huntGroups?: readonly HuntGroup[];
  registrationTimeoutMs?: number;
  /** How long Kamailio lets a phone ring unanswered before it ends the call (default 60 s). */
  noAnswerMs?: number;
}

/** Where Debian's and a source build's baresip keep their modules. */
const BARESIP_MODULE_DIRS = ['/usr/lib/baresip/modules', '/usr/local/lib/baresip/modules', '/usr/lib64/baresip/modules'];

const baresipModuleDir = () => {
  const found = BARESIP_MODULE_DIRS.find((dir) => existsSync(join(dir, 'ctrl_tcp.so')));
  if (!found) throw new Error(`baresip's modules (ctrl_tcp.so) are not in ${BARESIP_MODULE_DIRS.join(', ')}: ${INSTALL_HINT}`);
  return found;
};

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => {
    if (!(key in values)) throw new Error(`no value for ${whole} in a test bed template`);
    return String(values[key]);
  });

const renderTemplate = async (template: string, target: string, values: Record<string, string | number>) =>
  writeFile(target, fill(await readFile(join(TEMPLATES, template), 'utf8'), values));

/** A hunt group's words go into Kamailio's script as they are: nothing that could end a string or a statement. */
const SCRIPT_WORD = /^[A-Za-z0-9_.+-]{1,64}$/;

const scriptWord = (word: string) => {
  if (!SCRIPT_WORD.test(word)) throw new Error(`"${word}" cannot be a hunt group's number, queue or member: letters, digits, "_", ".", "+" or "-" only`);
  return word;
};

/** The routing script's block for one hunt group (route[HUNT_GROUPS] in kamailio.cfg). */
const huntGroupRoute = ({ number, queue, members }: HuntGroup, sipDomain: string) => {
  const [first, ...others] = members.map((member) => `sip:${scriptWord(member)}@${sipDomain}`);
  if (first === undefined) throw new Error(`hunt group ${number} has no members`);
  return [
    `\tif ($rU == "${scriptWord(number)}") {`,
    `\t\t$dlg_var(queue) = "${scriptWord(queue)}";`,
    `\t\t$ru = "${first}";`,
    ...others.map((uri) => `\t\tappend_branch("${uri}");`),
    '\t\troute(RING_ALL);',
    '\t}',
  ].join('\n');
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const waitUntil = async (what: string, check: () => Promise<boolean>, timeoutMs: number, diagnose: () => string) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms\n${diagnose()}`);
    await sleep(50);
  }
};

const registeredUsers = async (rpc: JsonRpcCall): Promise<Set<string>> => {
  const dump = (await rpc('ul.dump', ['brief'], AbortSignal.timeout(2000))) as {
    Domains: { Domain: { AoRs: { AoR: string }[] } }[];
  };
  return new Set(dump.Domains.flatMap((domain) => domain.Domain.AoRs.map((aor) => aor.AoR)));
};

/** Kills whatever is still running when the process exits without a teardown (a crashed test run). */
const killOnExit = (programs: RunningProgram[]) => {
  const kill = () => {
    for (const program of programs)
      if (!program.exited())
        try {
          process.kill(-program.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
  };
  process.once('exit', kill);
  return () => process.off('exit', kill);
};

export const startSipTestbed = async ({
  phones: specs,
  huntGroups = [],
  registrationTimeoutMs = 20_000,
  noAnswerMs = 60_000,
  webrtc = false,
}: SipTestbedOptions): Promise<SipTestbed> => {
  const started = Date.now();
  const kamailioPath = findProgram('kamailio', INSTALL_HINT);
  const baresipPath = findProgram('baresip', INSTALL_HINT);
  const moduleDir = baresipModuleDir();
  const root = await mkdtemp(join(tmpdir(), 'callboard-sip-'));
  const base = await freePortBlock(3 + PORTS_PER_PHONE * specs.length);
  const sipPort = base;
  const rpcPort = base + 1;
  const wsPort = base + 2;
  const sipDomain = `127.0.0.1:${sipPort}`;
  const rpcURL = `http://127.0.0.1:${rpcPort}/RPC`;
  const rpc = createJsonRpcClient({ url: rpcURL });
  const programs: RunningProgram[] = [];
  const forgetExitHook = killOnExit(programs);
  const controls: PhoneControl[] = [];
  let phones: SipPhone[] = [];
  let kamailio: RunningProgram | undefined;
  let rtpengine: RunningRtpengine | undefined;
  const sharedSecret = randomBytes(24).toString('base64url');

  const stopPhones = async () => {
    for (const control of controls) control.close();
    // Phones un-register on the way out: they need Kamailio still up, or they hang until killed.
    await Promise.all(programs.filter((program) => program !== kamailio && program !== rtpengine?.program).map((program) => program.stop(2000)));
  };
  const stopKamailio = async () => {
    await kamailio?.stop(3000);
    await rtpengine?.stop();
  };
  const stop = async () => {
    await stopPhones();
    await stopKamailio();
    forgetExitHook();
    await rm(root, { recursive: true, force: true });
  };

  try {
    if (webrtc) {
      rtpengine = await startRtpengine();
      programs.push(rtpengine.program);
    }
    const kamailioDir = join(root, 'kamailio');
    await mkdir(join(kamailioDir, 'run'), { recursive: true });
    await renderTemplate('kamailio.cfg', join(kamailioDir, 'kamailio.cfg'), {
      SIP_PORT: sipPort,
      RPC_PORT: rpcPort,
      NO_ANSWER_MS: noAnswerMs,
      HUNT_GROUPS: huntGroups.map((group) => huntGroupRoute(group, sipDomain)).join('\n'),
      // Read only under WITH_WEBRTC.
      WS_PORT: wsPort,
      RTPENGINE_PORT: rtpengine?.ngPort ?? 0,
      EPHEMERAL_SECRET: sharedSecret,
    });
    const defines = webrtc ? ['-A', 'WITH_WEBRTC'] : [];
    kamailio = startProgram('kamailio', kamailioPath, ['-f', 'kamailio.cfg', ...defines, '-DD', '-E', '-Y', join(kamailioDir, 'run'), '-m', '64', '-M', '8'], kamailioDir);
    programs.push(kamailio);
    const running = kamailio;
    await waitUntil('Kamailio did not answer JSON-RPC', async () => (await rpc('core.uptime', [], AbortSignal.timeout(500))) !== undefined, 10_000, () => running.output());

    phones = await Promise.all(
      specs.map(async (spec, i): Promise<SipPhone> => {
        const phoneSIPPort = base + 3 + PORTS_PER_PHONE * i;
        const controlPort = phoneSIPPort + 2;
        const dir = join(root, `phone-${spec.user}`);
        await mkdir(dir, { recursive: true });
        const recordings = spec.record ? join(dir, 'recordings') : undefined;
        if (recordings) await mkdir(recordings);
        const recording = recordings ? `module\t\t\tsndfile.so\nsnd_path\t\t${recordings}` : '';
        await renderTemplate('baresip/config', join(dir, 'config'), { SIP_PORT: phoneSIPPort, CTRL_PORT: controlPort, RTP_PORTS, MODULE_PATH: moduleDir, RECORDING: recording });
        await renderTemplate('baresip/accounts', join(dir, 'accounts'), { USER: spec.user, DOMAIN: sipDomain, ANSWER_MODE: spec.answerMode ?? 'auto' });
        await writeFile(join(dir, 'contacts'), '');
        const program = startProgram(`phone ${spec.user}`, baresipPath, ['-f', dir], dir);
        programs.push(program);
        const control = await PhoneControl.connect(controlPort, `phone ${spec.user}`).catch((error: Error) => {
          throw new Error(`${error.message}\n${program.output()}`);
        });
        controls.push(control);
        return { user: spec.user, uri: `sip:${spec.user}@${sipDomain}`, control, process: program, ...(recordings ? { recordings } : {}) };
      }),
    );

    const users = specs.map((spec) => spec.user);
    let missing = users;
    await waitUntil(
      'Not every phone registered',
      async () => {
        const registered = await registeredUsers(rpc);
        missing = users.filter((user) => !registered.has(user));
        return missing.length === 0;
      },
      registrationTimeoutMs,
      () => `still unregistered: ${missing.join(', ')}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    rpcURL,
    sipDomain,
    rpc,
    phones,
    phone: (user) => {
      const found = phones.find((phone) => phone.user === user);
      if (!found) throw new Error(`no phone ${user} in the test bed`);
      return found;
    },
    uriOf: (user) => `sip:${user}@${sipDomain}`,
    startupMs: Date.now() - started,
    ...(rtpengine ? { webrtc: { websocketURL: `ws://127.0.0.1:${wsPort}/sip`, sharedSecret, rtpengineNgPort: rtpengine.ngPort, rtpengine } } : {}),
    kamailioPid: kamailio?.pid ?? NaN,
    kamailioLog: () => kamailio?.output() ?? '',
    stopKamailio,
    stop,
  };
};
