/**
 * What a page's JavaScript heap holds, by constructor (objects, DOM wrappers) or by kind (strings,
 * arrays, code), from a V8 heap snapshot: two of them say what grows when the heap does.
 */
import type { CDPSession } from '@playwright/test';

export type HeapContents = Map<string, { count: number; bytes: number }>;

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Kinds whose nodes are told apart by their name (a constructor, a DOM class); others are counted by kind. */
const NAMED_KINDS = new Set(['object', 'native']);

export const heapContents = async (cdp: CDPSession): Promise<HeapContents> => {
  const chunks: string[] = [];
  const onChunk = ({ chunk }: { chunk: string }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  const { snapshot, nodes, strings } = JSON.parse(chunks.join('')) as HeapSnapshot;
  const fields = snapshot.meta.node_fields;
  const kinds = snapshot.meta.node_types[0];
  const [kindAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field)) as [
    number,
    number,
    number,
  ];
  const contents: HeapContents = new Map();
  for (let node = 0; node < nodes.length; node += fields.length) {
    const kind = kinds[nodes[node + kindAt] as number] ?? 'unknown';
    const name = NAMED_KINDS.has(kind) ? (strings[nodes[node + nameAt] as number] ?? kind) : `(${kind})`;
    const entry = contents.get(name) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += nodes[node + sizeAt] as number;
    contents.set(name, entry);
  }
  return contents;
};

export interface HeapGrowthEntry {
  name: string;
  count: number;
  bytes: number;
}

/** The kinds that grew most from `before` to `after`, by bytes. */
export const heapGrowth = (before: HeapContents, after: HeapContents, top = 6): HeapGrowthEntry[] =>
  [...after]
    .map(([name, now]) => ({
      name,
      count: now.count - (before.get(name)?.count ?? 0),
      bytes: now.bytes - (before.get(name)?.bytes ?? 0),
    }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, top);
