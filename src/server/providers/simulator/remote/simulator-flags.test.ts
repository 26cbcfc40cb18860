import { describe, expect, it } from 'vitest';
import { parseSimulatorFlags } from './simulator-flags.js';

describe('the standalone simulator’s flags', () => {
  it('reads every setting, in either form, and fills the process’s defaults', () => {
    const flags = parseSimulatorFlags([
      '--port=0',
      '--host',
      '::1',
      '--seed',
      '-7',
      '--agents',
      '300',
      '--traffic',
      '1.5',
      '--dial-mode',
      'direct',
      '--speed',
      '20',
      '--keep-ended-ms',
      '0',
      '--email-domain',
      'calls.example.org',
      '--name',
      'pbx-main',
      '--recorded-calls',
      '5000',
      '--control',
    ]);
    expect(flags).toEqual({
      host: '::1',
      port: 0,
      simulator: {
        seed: -7,
        name: 'pbx-main',
        agents: 300,
        traffic: 1.5,
        dialMode: 'direct',
        speed: 20,
        keepEndedMs: 0,
        emailDomain: 'calls.example.org',
        recordedCalls: 5000,
      },
      control: true,
      check: false,
      help: false,
    });
    const defaults = parseSimulatorFlags([]);
    expect(defaults).toMatchObject({ host: '127.0.0.1', port: 8090, control: false, simulator: { name: 'simulator', recordedCalls: 200_000 } });
    expect(Number.isSafeInteger(defaults.simulator.seed)).toBe(true);
    expect(defaults.simulator.agents).toBeUndefined();
  });

  it.each([
    [['--agents', '0'], '--agents: must be an integer from 1 to 50000, got "0"'],
    [['--agents', '2.5'], '--agents: must be an integer from 1 to 50000, got "2.5"'],
    [['--traffic', '0'], '--traffic: must be a number above 0 to 100, got "0"'],
    [['--speed', 'fast'], '--speed: must be a number above 0 to 1000, got "fast"'],
    [['--port', '70000'], '--port: must be an integer from 0 to 65535, got "70000"'],
    [['--seed', ''], '--seed: must be an integer'],
    [['--dial-mode', 'sideways'], '--dial-mode: must be two-step or direct, got "sideways"'],
    [['--email-domain', 'not a domain'], '--email-domain: must be a domain name such as example.com'],
    [['--name', '__'], '--name: must be a name with at least one letter or digit'],
    [['--prot', '8090'], '--prot: not a flag of the simulator'],
    [['8090'], '"8090": not a flag; the simulator takes only flags'],
    [['--port'], '--port: needs a value'],
    [['--port', '--control'], '--port: needs a value'],
    [['--control=yes'], '--control: takes no value'],
    [['--agents', '5', '--agents', '6'], '--agents: given twice'],
  ])('names the flag and says why for %j', (argv, message) => {
    expect(() => parseSimulatorFlags(argv)).toThrow(message);
  });
});
