import { describe, expect, it } from 'vitest';
import { ephemeralPassword, uniqueMids, webrtcSettingsSchema } from './browser-phones.js';

describe('browser phones at Kamailio', () => {
  it("computes auth_ephemeral's password: base64 of HMAC-SHA1 of the user under the shared secret", () => {
    // RFC 2202's first HMAC-SHA1 test case, as base64.
    expect(ephemeralPassword('\x0b'.repeat(20), 'Hi There')).toBe(Buffer.from('b617318655057264e28bc0b6fb378c8ef146be00', 'hex').toString('base64'));
  });

  it('takes wss anywhere, plain ws only on this machine, and names the field of a bad address', () => {
    const settings = (websocketURL: string) => webrtcSettingsSchema.safeParse({ websocketURL, sharedSecret: 's3cret' });
    expect(settings('wss://sip.example.com:8443/').success).toBe(true);
    expect(settings('ws://127.0.0.1:8080/sip').success).toBe(true);
    const plain = settings('ws://sip.example.com/');
    expect(plain.success).toBe(false);
    expect(plain.error?.issues[0]).toMatchObject({ path: ['websocketURL'], message: expect.stringContaining('must be wss') });
    expect(settings('https://sip.example.com/').error?.issues[0]?.path).toEqual(['websocketURL']);
  });

  it("numbers a listener's media sections 0, 1, … whatever the parties called theirs, and drops a BUNDLE group", () => {
    const offer = ['v=0', 'a=group:BUNDLE 0', 'm=audio 1 UDP/TLS/RTP/SAVPF 0', 'a=mid:0', 'm=audio 2 UDP/TLS/RTP/SAVPF 0', 'a=mid:0', ''].join('\r\n');
    expect(uniqueMids(offer)).toBe(['v=0', 'm=audio 1 UDP/TLS/RTP/SAVPF 0', 'a=mid:0', 'm=audio 2 UDP/TLS/RTP/SAVPF 0', 'a=mid:1', ''].join('\r\n'));
  });
});
