/** The text many streams share: one encoding, one count and one compression serve every stream, and each says the same. */
import { constants, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SharedText } from './event-stream.js';

describe('SharedText', () => {
  const text = `{"name":"Zoë Ångström","note":"☎ 📞","digits":"${'4420794609'.repeat(50)}"}`;

  it('counts its bytes as UTF-8 carries them, the same whether or not it was encoded first', () => {
    const counted = new SharedText(text);
    expect(counted.byteLength).toBe(Buffer.byteLength(text, 'utf8'));
    expect(counted.byteLength).toBeGreaterThan(text.length);
    const encoded = new SharedText(text);
    expect(encoded.bytes().toString('utf8')).toBe(text);
    expect(encoded.byteLength).toBe(counted.byteLength);
  });

  it('hands every stream the very same bytes and compressed blocks, made once', () => {
    const shared = new SharedText(text);
    expect(shared.bytes()).toBe(shared.bytes());
    expect(shared.deflate()).toBe(shared.deflate());
    expect(inflateRawSync(shared.deflate(), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8')).toBe(text);
  });
});
