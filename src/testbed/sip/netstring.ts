/** Netstring framing (`<length>:<bytes>,`), the wire format of baresip's ctrl_tcp module. */

export const encodeNetstring = (payload: string): Buffer => {
  const body = Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length}:`), body, Buffer.from(',')]);
};

/** Collects bytes as they arrive and hands out each complete frame's payload. */
export class NetstringReader {
  private buffer = Buffer.alloc(0);

  push(chunk: Buffer): string[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const frames: string[] = [];
    for (;;) {
      const colon = this.buffer.indexOf(0x3a);
      if (colon < 0) break;
      const header = this.buffer.subarray(0, colon).toString('ascii');
      if (!/^[0-9]{1,9}$/.test(header)) throw new Error(`not a netstring: "${header.slice(0, 20)}"`);
      const end = colon + 1 + Number(header);
      if (this.buffer.length < end + 1) break;
      if (this.buffer[end] !== 0x2c) throw new Error('netstring without its closing comma');
      frames.push(this.buffer.subarray(colon + 1, end).toString('utf8'));
      this.buffer = this.buffer.subarray(end + 1);
    }
    return frames;
  }
}
