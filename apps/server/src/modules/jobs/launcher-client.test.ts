import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FrameReader, LineTooLong, readAnswer, type AnswerLine, type Frame } from './launcher-client.ts';

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

/** An answer arriving in chunks of `size` bytes. */
async function* chunks(stream: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let pos = 0; pos < stream.length; pos += size) yield stream.subarray(pos, pos + size);
}

/** A slow store (a few ms per chunk, so the reader waits on back-pressure) that keeps what it got, or why it failed. */
function store(got: Map<string, Buffer | Error>) {
  return async (filename: string, source: Readable, bytes: number) => {
    const parts: Buffer[] = [];
    try {
      for await (const c of source as AsyncIterable<Buffer>) {
        parts.push(c);
        await sleep(1);
      }
      const data = Buffer.concat(parts);
      expect(data.length).toBe(bytes);
      got.set(filename, data);
    } catch (e) {
      got.set(filename, e as Error);
      throw e;
    }
  };
}

describe('readAnswer (POST /run and POST /train answers)', () => {
  const a = randomBytes(3 * 1024 * 1024);
  const legacy = Buffer.from('an earlier launcher’s file');
  const answer = Buffer.concat([
    Buffer.from('{"type":"started"}\n\n{"type":"progress","step":1}\n'),
    Buffer.from(JSON.stringify({ type: 'file', filename: 'a.bin', bytes: a.length }) + '\n'),
    a,
    Buffer.from(JSON.stringify({ type: 'file', filename: 'empty.bin', bytes: 0 }) + '\n'),
    Buffer.from(JSON.stringify({ type: 'done', inline: legacy.toString('base64') }) + '\n'),
    Buffer.from('{"type":"after the end"}\n'),
  ]);

  it.each([1000, 64 * 1024])(
    'hands lines to onLine, streams files to their store, ends with the end line once every file is stored (chunks of %i)',
    async (size) => {
      const got = new Map<string, Buffer | Error>();
      const lines: string[] = [];
      let bytes = 0;
      const value = await readAnswer(chunks(answer, size), new FrameReader(1024), {
        onChunk: (c) => void (bytes += c.length),
        onFileLine: (msg) => String(msg.filename),
        onFile: store(got),
        onLine: (msg: AnswerLine, addFile) => {
          lines.push(msg.type);
          if (msg.type !== 'done') return undefined;
          addFile('inline.txt', Buffer.from(String(msg.inline), 'base64'));
          return 'end';
        },
      });
      expect(lines).toEqual(['started', 'progress', 'done']);
      // the value comes once the files are stored, the one sent inside the end line too
      expect([...got.keys()].sort()).toEqual(['a.bin', 'empty.bin', 'inline.txt']);
      expect((got.get('a.bin') as Buffer).equals(a)).toBe(true);
      expect((got.get('empty.bin') as Buffer).length).toBe(0);
      expect((got.get('inline.txt') as Buffer).equals(legacy)).toBe(true);
      expect(value).toBe('end');
      expect(bytes).toBeGreaterThan(a.length);
    },
  );

  it('an answer that stops in the middle of a file: the file is broken off, its store settled, undefined answered', async () => {
    const got = new Map<string, Buffer | Error>();
    const cut = answer.subarray(0, answer.indexOf(a) + 1000);
    const value = await readAnswer(chunks(cut, 300), new FrameReader(1024), {
      onFileLine: (msg) => String(msg.filename),
      onFile: store(got),
      onLine: (msg) => (msg.type === 'done' ? true : undefined),
    });
    expect(value).toBeUndefined();
    expect(got.get('a.bin')).toBeInstanceOf(Error);
    expect((got.get('a.bin') as Error).message).toMatch(/broken off/);
  });

  it('a refusal thrown by a handler is thrown on after the stores settle; nothing is read after it', async () => {
    const got = new Map<string, Buffer | Error>();
    const lines: string[] = [];
    const refused = await readAnswer(chunks(answer, 4096), new FrameReader(1024), {
      onFileLine: (msg) => {
        if (msg.filename === 'empty.bin') throw new Error('refused: empty.bin');
        return String(msg.filename);
      },
      onFile: store(got),
      onLine: (msg) => void lines.push(msg.type),
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe('refused: empty.bin');
    expect((got.get('a.bin') as Buffer).equals(a)).toBe(true);
    expect(lines).toEqual(['started', 'progress']);
  });
});
