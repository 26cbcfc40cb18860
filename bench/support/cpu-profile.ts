/**
 * CPU profiles for the results: where a process spent a window of time, by function and by
 * source file. V8's profile format is the same from Node's inspector and from Chromium's
 * DevTools protocol; the dashboard's minified frames are mapped back to their sources.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** The parts of a V8 CPU profile read here. */
export interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileEntry {
  name: string;
  selfMs: number;
  /** Of the busy time (idle excluded). */
  share: number;
}

export interface ProfileSummary {
  windowMs: number;
  busyMs: number;
  functions: ProfileEntry[];
  files: ProfileEntry[];
}

/** Where a frame's code comes from, as a reader of this repository names it. */
export type Locate = (frame: CallFrame) => { file: string; line: number; name?: string };

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** A file of this repository or a package, never a path of the machine that ran the benchmark. */
const readablePath = (path: string): string => {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inPackage) return inPackage[1] as string;
  if (path.startsWith(REPO)) return relative(REPO, path);
  return path.startsWith('/') ? path.replace(/^.*\//, '') : path;
};

/** Profiler bookkeeping rather than code: `(program)`, `(garbage collector)`, `(idle)`. */
const isBookkeeping = (frame: CallFrame) => /^\(.*\)$/.test(frame.functionName) && !frame.url;

export const summarizeProfile = (profile: Profile, locate: Locate, top = 8): ProfileSummary => {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id] as const)));
  const selfByNode = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time runs until the next one.
  samples.forEach((id, index) => selfByNode.set(id, (selfByNode.get(id) ?? 0) + (deltas[index + 1] ?? 0) / 1000));
  /** A built-in (layout, a native call) counts for the nearest script function that called it. */
  const caller = (id: number) => {
    for (let at = parents.get(id); at !== undefined; at = parents.get(at)) {
      const frame = frames.get(at);
      if (frame?.url) return frame;
    }
    return undefined;
  };
  const named = (frame: CallFrame) => {
    const where = locate(frame);
    return { name: `${where.name ?? (frame.functionName || '(anonymous)')} (${where.file}:${where.line})`, file: where.file };
  };
  /** Time in a library or in Node counts for the nearest function of this repository's sources that called it, named beside it. */
  const ownCaller = (id: number) => {
    for (let at = parents.get(id); at !== undefined; at = parents.get(at)) {
      const frame = frames.get(at);
      if (frame?.url && locate(frame).file.startsWith('src/')) return named(frame).name;
    }
    return undefined;
  };
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let busyMs = 0;
  for (const [id, ms] of selfByNode) {
    const frame = frames.get(id);
    if (!frame || frame.functionName === '(idle)') continue;
    busyMs += ms;
    let entry = { name: frame.functionName, file: frame.functionName };
    if (!isBookkeeping(frame)) {
      const from = frame.url ? undefined : caller(id);
      entry =
        frame.url || !from
          ? named(frame)
          : { name: `${frame.functionName || '(native code)'} from ${named(from).name}`, file: named(from).file };
      const own = entry.file.startsWith('src/') ? undefined : ownCaller(id);
      if (own) entry = { ...entry, name: `${entry.name} ← ${own}` };
    }
    byFunction.set(entry.name, (byFunction.get(entry.name) ?? 0) + ms);
    byFile.set(entry.file, (byFile.get(entry.file) ?? 0) + ms);
  }
  const ranked = (totals: Map<string, number>) =>
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, selfMs]) => ({ name, selfMs, share: busyMs > 0 ? selfMs / busyMs : 0 }));
  return { windowMs: (profile.endTime - profile.startTime) / 1000, busyMs, functions: ranked(byFunction), files: ranked(byFile) };
};

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes a source map's `mappings`: per generated line, segments [column, source, line, column, name?]. */
const decodeMappings = (mappings: string): number[][][] => {
  const lines: number[][][] = [];
  const state = [0, 0, 0, 0, 0];
  for (const line of mappings.split(';')) {
    state[0] = 0;
    const segments: number[][] = [];
    for (const text of line.split(',')) {
      if (text === '') continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of text) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      fields.forEach((delta, index) => (state[index] = (state[index] ?? 0) + delta));
      segments.push(state.slice(0, fields.length));
    }
    lines.push(segments);
  }
  return lines;
};

interface RawSourceMap {
  sources: string[];
  sourcesContent?: (string | null)[];
  mappings: string;
}

/** The name a reader would look for: the function, method or constant declared on the source line. */
const DECLARED =
  /(?:function\s*\*?\s*|const\s+|let\s+|^\s*(?:async\s+|static\s+|private\s+|readonly\s+|get\s+)*)([A-Za-z_$][\w$]*)\s*[=(<:]/;

/** Maps positions of generated code to the source file, line, and the name declared there. */
const sourceMapLocator = (raw: RawSourceMap, sourcePath: (source: string) => string) => {
  const lines = decodeMappings(raw.mappings);
  const contents = new Map<number, string[]>();
  /** A source's lines, from the map or else from the file it names. */
  const sourceLines = (index: number): string[] => {
    let text = contents.get(index);
    if (!text) {
      const embedded = raw.sourcesContent?.[index];
      try {
        text = (embedded ?? readFileSync(sourcePath(raw.sources[index] ?? ''), 'utf8')).split('\n');
      } catch {
        text = [];
      }
      contents.set(index, text);
    }
    return text;
  };
  return (frame: CallFrame): { file: string; line: number; name?: string } | undefined => {
    let found: number[] | undefined;
    for (const segment of lines[frame.lineNumber] ?? []) {
      if ((segment[0] ?? 0) > frame.columnNumber) break;
      found = segment;
    }
    if (!found || found.length < 4) return undefined;
    const [, source = 0, line = 0] = found;
    const name = frame.functionName || DECLARED.exec(sourceLines(source)[line] ?? '')?.[1];
    return { file: readablePath(sourcePath(raw.sources[source] ?? '')), line: line + 1, ...(name ? { name } : {}) };
  };
};

const INLINE_MAP = /sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)/;

/** Profiles this process for `ms` and summarizes it, mapping transpiled TypeScript back through the inline source maps. */
export const profileWindow = async (ms: number): Promise<ProfileSummary> => {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await new Promise((resolve) => setTimeout(resolve, ms));
    const { profile } = (await session.post('Profiler.stop')) as {
      profile: Profile & { nodes: { callFrame: CallFrame & { scriptId: string } }[] };
    };
    await session.post('Debugger.enable');
    const locators = new Map<string, ReturnType<typeof sourceMapLocator> | undefined>();
    for (const { callFrame } of profile.nodes) {
      if (locators.has(callFrame.scriptId) || !callFrame.url.startsWith('file://')) continue;
      const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: callFrame.scriptId });
      const inline = INLINE_MAP.exec(scriptSource)?.[1];
      const raw = inline ? (JSON.parse(Buffer.from(inline, 'base64').toString('utf8')) as RawSourceMap) : undefined;
      locators.set(callFrame.scriptId, raw && sourceMapLocator(raw, () => fileURLToPath(callFrame.url)));
    }
    const locate: Locate = (frame) => {
      const mapped = locators.get((frame as CallFrame & { scriptId: string }).scriptId)?.(frame);
      if (mapped) return mapped;
      const path = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url || '(native)';
      return { file: readablePath(path), line: frame.lineNumber + 1 };
    };
    return summarizeProfile(profile, locate);
  } finally {
    session.disconnect();
  }
};

/**
 * Frames of the built dashboard, mapped through its source maps in `assetsDir` to the source file,
 * line and name; frames of other scripts keep their own names.
 */
export const dashboardLocator = (assetsDir: string): Locate => {
  const locators = new Map<string, ReturnType<typeof sourceMapLocator> | undefined>();
  const load = (file: string) => {
    if (!locators.has(file)) {
      try {
        const raw = JSON.parse(readFileSync(`${assetsDir}/${file}.map`, 'utf8')) as RawSourceMap;
        locators.set(
          file,
          sourceMapLocator(raw, (source) => source.replace(/^(\.\.\/)+/, '')),
        );
      } catch {
        locators.set(file, undefined);
      }
    }
    return locators.get(file);
  };
  return (frame) => {
    const file = /\/assets\/([^/?#]+\.js)/.exec(frame.url)?.[1];
    const mapped = file ? load(file)?.(frame) : undefined;
    return mapped ?? { file: file ?? (frame.url || '(native)'), line: frame.lineNumber + 1 };
  };
};
