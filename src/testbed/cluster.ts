/**
 * A cluster of the service on this machine: the simulated phone systems as processes of their
 * own, N service instances on one PostgreSQL, and HAProxy in front, checking each instance's
 * readiness. `npm run demo:cluster` runs it; the fault tests kill, restart and cut its parts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findProgram, startProgram, type RunningProgram } from './child-process.js';
import { freePortBlock } from './free-ports.js';

export interface ClusterOptions {
  databaseURL: string;
  instances?: number;
  /** Lists are refused after this long without a good sync; a lead no one holds is taken within a quarter of it. */
  staleAfterMs?: number;
  /** The service's entry: the built one, or the sources through tsx (the default, for tests). */
  entry?: 'built' | 'source';
  /** The project's root directory. */
  root?: string;
  logLevel?: string;
  /** Requests a minute per token for the whole cluster (the config's default when not given). */
  rateLimitPerMinute?: number;
  /** Each instance's log lines, as they come (a demo prints them); none by default. */
  echo?: (instance: string, line: string) => void;
  /** Providers of the application besides the simulators (a Twilio provider on a double, say), given the balancer's URL. */
  moreProviders?: (balancerURL: string) => object[];
  /**
   * The phone systems, each a process serving the simulator's wire: the two simulators by default;
   * a benchmark gives a center of its own size instead.
   */
  centers?: ClusterCenter[];
  /** More of the config's top level (`reports`, say). */
  moreConfig?: object;
}

/** A phone system of the cluster's application, as a process of its own on the simulator's wire. */
export interface ClusterCenter {
  id: string;
  name: string;
  /** The program and its arguments, given the port it is to serve on. */
  command: (port: number) => { program: string; args: string[] };
  /** Whether it offers the drill controls (`--control`). */
  control: boolean;
  /** More of its provider's config (`keepEndedMs`, say). */
  config?: object;
}

export interface ClusterInstance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  program: RunningProgram | undefined;
}

/** The providers of the cluster's one application by default, each a simulator process of its own. */
const SIMULATORS = [
  { id: 'pbx-main', name: 'Main PBX', flags: ['--dial-mode', 'two-step', '--seed', '1'] },
  { id: 'sip-trunk', name: 'SIP trunk', flags: ['--dial-mode', 'direct', '--seed', '2', '--agents', '12'] },
];

const simulatorCenters = (entry: 'built' | 'source'): ClusterCenter[] =>
  SIMULATORS.map((simulator) => ({
    id: simulator.id,
    name: simulator.name,
    control: true,
    command: (port) => ({
      program: process.execPath,
      args: [
        ...(entry === 'built'
          ? ['--enable-source-maps', 'dist/server/simulator-main.js']
          : ['--import', 'tsx', 'src/server/simulator-main.ts']),
        '--port',
        String(port),
        '--control',
        ...simulator.flags,
      ],
    }),
  }));

const token = () => randomBytes(24).toString('base64url');

const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs: number, program?: RunningProgram) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (program?.exited()) throw new Error(`${what}: ${program.name} exited:\n${program.output()}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${program ? `:\n${program.output()}` : ''}`);
    await new Promise((done) => setTimeout(done, 100));
  }
};

const answers = async (url: string, status = 200) => (await fetch(url, { signal: AbortSignal.timeout(2000) })).status === status;

const haproxyConfig = (port: number, statsPort: number, instances: ClusterInstance[]) =>
  [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout tunnel 1h',
    // A request that meets a dead or stopping instance goes to another: lists and streams are
    // safe to repeat, and make-call is safe by its Idempotency-Key.
    '  option redispatch',
    '  retries 3',
    '  retry-on conn-failure empty-response response-timeout 503',
    'frontend callboard',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'frontend stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`),
    '',
  ].join('\n');

export class Cluster {
  readonly token = token();
  readonly metricsToken = token();
  readonly instances: ClusterInstance[];
  readonly simulators: { id: string; url: string; program: RunningProgram }[] = [];
  private readonly centers: ClusterCenter[];
  readonly balancerURL: string;
  readonly statsURL: string;
  private balancer: RunningProgram | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'callboard-cluster-'));
  private readonly root: string;

  private constructor(
    private readonly options: Required<
      Omit<ClusterOptions, 'root' | 'echo' | 'rateLimitPerMinute' | 'moreProviders' | 'centers' | 'moreConfig'>
    > &
      Pick<ClusterOptions, 'echo' | 'rateLimitPerMinute' | 'moreProviders' | 'moreConfig'>,
    root: string,
    private readonly firstPort: number,
    centers: ClusterCenter[] | undefined,
  ) {
    this.root = root;
    this.centers = centers ?? simulatorCenters(options.entry);
    this.balancerURL = `http://127.0.0.1:${firstPort}`;
    this.statsURL = `http://127.0.0.1:${firstPort + 1}`;
    this.instances = Array.from({ length: options.instances }, (_, i) => {
      const port = firstPort + 2 + this.centers.length + i;
      return { name: `instance-${i + 1}`, port, url: `http://127.0.0.1:${port}`, program: undefined };
    });
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const instances = options.instances ?? 3;
    const firstPort = await freePortBlock(2 + (options.centers?.length ?? SIMULATORS.length) + instances);
    const cluster = new Cluster(
      {
        instances,
        databaseURL: options.databaseURL,
        staleAfterMs: options.staleAfterMs ?? 8000,
        entry: options.entry ?? 'source',
        logLevel: options.logLevel ?? 'warn',
        echo: options.echo,
        rateLimitPerMinute: options.rateLimitPerMinute,
        moreProviders: options.moreProviders,
        moreConfig: options.moreConfig,
      },
      resolve(options.root ?? '.'),
      firstPort,
      options.centers,
    );
    try {
      await cluster.startSimulators();
      cluster.writeConfig();
      await Promise.all(cluster.instances.map((instance) => cluster.startInstance(instance)));
      await cluster.startBalancer();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** The path of the calls of a provider of the cluster's application. */
  callsPath(providerID = 'pbx-main'): string {
    return `/v1/accounts/demo/applications/support/provider/${providerID}/calls`;
  }

  get authorization(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }

  /** The one-click address of the dashboard, through the balancer. */
  get dashboardURL(): string {
    return `${this.balancerURL}/#token=${this.token}`;
  }

  async startInstance(instance: ClusterInstance): Promise<void> {
    const entry =
      this.options.entry === 'built'
        ? ['--enable-source-maps', 'dist/server/main.js']
        : ['--import', 'tsx', 'src/server/main.ts'];
    instance.program = startProgram(
      instance.name,
      process.execPath,
      entry,
      this.root,
      {
        PORT: String(instance.port),
        HOST: '127.0.0.1',
        CALLBOARD_CONFIG: join(this.dir, 'cluster.json'),
        CALLBOARD_INSTANCE: instance.name,
        DATABASE_URL: this.options.databaseURL,
        LOG_LEVEL: this.options.logLevel,
      },
      this.echoLines(instance.name),
    );
    await waitFor(`${instance.name} ready`, () => answers(`${instance.url}/readyz`), 60_000, instance.program);
  }

  /** Whole lines of a program's output, to `echo`. */
  private echoLines(name: string): ((text: string) => void) | undefined {
    const echo = this.options.echo;
    if (!echo) return undefined;
    let partial = '';
    return (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line) echo(name, line);
    };
  }

  /** SIGKILL: the instance dies at once, with its connections and its locks. */
  kill(instance: ClusterInstance): void {
    const program = instance.program;
    if (program && !program.exited()) process.kill(program.pid, 'SIGKILL');
  }

  /** SIGTERM and wait: the instance drains and stops as an orchestrator would stop it. */
  async stopInstance(instance: ClusterInstance): Promise<void> {
    await instance.program?.stop(15_000);
  }

  async metrics(instance: ClusterInstance): Promise<string> {
    const response = await fetch(`${instance.url}/metrics`, {
      headers: { authorization: `Bearer ${this.metricsToken}` },
      signal: AbortSignal.timeout(3000),
    });
    return response.text();
  }

  /** The instance that leads a provider's sync now, by the instances' own metrics. */
  async leaderOf(providerID: string): Promise<ClusterInstance> {
    for (const instance of this.instances) {
      const text = await this.metrics(instance).catch(() => '');
      const line = text
        .split('\n')
        .find((l) => l.startsWith('callboard_provider_sync_leader{') && l.includes(`provider="${providerID}"`));
      if (line?.endsWith(' 1')) return instance;
    }
    throw new Error(`no instance leads ${providerID}`);
  }

  async stop(): Promise<void> {
    await this.balancer?.stop();
    await Promise.all(this.instances.map((instance) => instance.program?.stop(15_000)));
    await Promise.all(this.simulators.map((simulator) => simulator.program.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async startSimulators(): Promise<void> {
    for (const [i, center] of this.centers.entries()) {
      const port = this.firstPort + 2 + i;
      const { program: command, args } = center.command(port);
      const program = startProgram(`simulator ${center.id}`, command, args, this.root);
      const url = `http://127.0.0.1:${port}`;
      this.simulators.push({ id: center.id, url, program });
    }
    await Promise.all(
      this.simulators.map((simulator) =>
        waitFor(
          `simulator ${simulator.id}`,
          async () => (await fetch(simulator.url, { signal: AbortSignal.timeout(2000) })).status < 500,
          60_000,
          simulator.program,
        ),
      ),
    );
  }

  private writeConfig(): void {
    const config = {
      cluster: { instances: this.options.instances },
      ...(this.options.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: this.options.rateLimitPerMinute }),
      metrics: { token: this.metricsToken },
      // Behind the balancer every client arrives from one address.
      limits: { connectionsPerAddress: 0 },
      ...this.options.moreConfig,
      accounts: [
        {
          id: 'demo',
          name: 'Demo Co.',
          applications: [
            {
              id: 'support',
              name: 'Support desk',
              providers: [
                ...this.simulators.map((simulator) => {
                  const center = this.centers.find((c) => c.id === simulator.id);
                  return {
                    id: simulator.id,
                    name: center?.name,
                    type: 'simulator',
                    staleAfterMs: this.options.staleAfterMs,
                    ...center?.config,
                    settings: { url: simulator.url, control: center?.control ?? false },
                  };
                }),
                ...(this.options.moreProviders?.(this.balancerURL) ?? []),
              ],
            },
          ],
          tokens: [{ name: 'demo', token: this.token, applications: '*', permissions: ['calls:read', 'calls:write'] }],
        },
      ],
    };
    writeFileSync(join(this.dir, 'cluster.json'), `${JSON.stringify(config, null, 2)}\n`);
  }

  private async startBalancer(): Promise<void> {
    const haproxy = findProgram('haproxy', 'install the Debian package "haproxy"');
    const file = join(this.dir, 'haproxy.cfg');
    writeFileSync(file, haproxyConfig(this.firstPort, this.firstPort + 1, this.instances));
    this.balancer = startProgram('haproxy', haproxy, ['-db', '-f', file], this.root);
    await waitFor('the balancer', () => answers(`${this.balancerURL}/readyz`), 20_000, this.balancer);
  }
}
