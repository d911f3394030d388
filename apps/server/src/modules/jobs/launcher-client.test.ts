import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FrameReader, LineTooLong, type Frame } from './launcher-client.ts';

/** Feeds `stream` to a reader in chunks of `size`, answering file headers as the client does. */
function read(stream: Buffer, size: number, max?: number) {
  const reader = new FrameReader(max);
  const lines: string[] = [];
  const files: Buffer[][] = [];
  for (let pos = 0; pos < stream.length; pos += size) {
    for (const f of reader.push(stream.subarray(pos, pos + size)) as Generator<Frame>) {
      if (f.kind === 'data') files[files.length - 1].push(Buffer.from(f.data));
      else {
        const text = f.line.toString();
        lines.push(text);
        const msg = JSON.parse(text) as { type: string; bytes?: number };
        if (msg.type === 'file') {
          files.push([]);
          reader.expectBytes(msg.bytes!);
        }
      }
    }
  }
  return { lines, files: files.map((f) => Buffer.concat(f)), midFrame: reader.midFrame };
}

describe('FrameReader', () => {
  const a = randomBytes(100_000);
  const b = Buffer.from('{"not":"a line"}\n\n\n');
  const stream = Buffer.concat([
    Buffer.from('{"type":"started"}\n{"type":"heartbeat"}\n'),
    Buffer.from(JSON.stringify({ type: 'file', filename: 'a.bin', bytes: a.length }) + '\n'),
    a,
    Buffer.from(JSON.stringify({ type: 'file', filename: 'b.bin', bytes: b.length }) + '\n'),
    b,
    Buffer.from(JSON.stringify({ type: 'result', items: [], measurements: { ü: 'ä' } }) + '\n'),
  ]);

  it.each([1, 7, 4096, 1 << 20])('splits lines and binary file frames the same in chunks of %i bytes', (size) => {
    const out = read(stream, size);
    expect(out.lines.map((l) => JSON.parse(l).type)).toEqual(['started', 'heartbeat', 'file', 'file', 'result']);
    expect(JSON.parse(out.lines[4]).measurements).toEqual({ ü: 'ä' });
    expect(out.files[0].equals(a)).toBe(true);
    expect(out.files[1].equals(b)).toBe(true);
    expect(out.midFrame).toBe(false);
  });

  it('reads a 32 MB line in 64 KB chunks in linear time', () => {
    const line = Buffer.from(JSON.stringify({ type: 'result', items: [], measurements: { x: 'y'.repeat(32 * 1024 * 1024) } }) + '\n');
    const t0 = performance.now();
    const out = read(line, 64 * 1024);
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0].length).toBe(line.length - 1);
    // one pass and one join (the string-concatenating reader searched the whole line again for every chunk)
    expect(performance.now() - t0).toBeLessThan(20_000);
  });

  it('refuses a line longer than its limit while it arrives', () => {
    expect(() => read(Buffer.from('x'.repeat(5000)), 1000, 4096)).toThrow(LineTooLong);
  });
});
