/** Extra TIFF tags of a written file: what microscopes and ImageJ put there for the pixel size. */
export interface TiffExtras {
  /** ImageDescription (270), e.g. ImageJ's "ImageJ=1.54f\nunit=micron\n…" or OME-XML. */
  description?: string;
  /** XResolution and YResolution (282, 283) as a fraction: pixels per ResolutionUnit. */
  resolution?: [number, number];
  /** ResolutionUnit (296): 1 none, 2 inch, 3 centimetre. */
  resolutionUnit?: 1 | 2 | 3 | 4 | 5;
  /** Other ASCII tags by number, as instruments write them: 34118 Zeiss SEM, 34682 FEI/Thermo, 50431 TESCAN, 305 Software… */
  tags?: Record<number, string>;
}

/**
 * Minimal baseline TIFF writer for tests and samples: uncompressed, little-endian, 1 strip, grey 8 or 16 bit
 * unsigned or 32-bit float (SampleFormat 3, as ImageJ saves), with optional description and resolution tags.
 */
export function encodeGreyTiff(data: Uint8Array | Uint16Array | Float32Array, width: number, height: number, extras: TiffExtras = {}): Buffer {
  const bps = data instanceof Float32Array ? 32 : data instanceof Uint16Array ? 16 : 8;
  const bytes = (width * height * bps) / 8;
  // tag, type (2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL), count, value or payload
  type Entry = { tag: number; type: number; count: number; value?: number; payload?: Buffer };
  const entries: Entry[] = [
    { tag: 256, type: 4, count: 1, value: width },
    { tag: 257, type: 4, count: 1, value: height },
    { tag: 258, type: 3, count: 1, value: bps },
    { tag: 259, type: 3, count: 1, value: 1 },
    { tag: 262, type: 3, count: 1, value: 1 },
    { tag: 273, type: 4, count: 1, value: 0 /* strip offset, patched */ },
    { tag: 277, type: 3, count: 1, value: 1 },
    { tag: 278, type: 4, count: 1, value: height },
    { tag: 279, type: 4, count: 1, value: bytes },
  ];
  if (extras.description !== undefined) {
    const text = Buffer.from(extras.description + '\0', 'latin1');
    entries.push({ tag: 270, type: 2, count: text.length, payload: text });
  }
  if (extras.resolution) {
    const r = Buffer.alloc(8);
    r.writeUInt32LE(extras.resolution[0], 0);
    r.writeUInt32LE(extras.resolution[1], 4);
    entries.push({ tag: 282, type: 5, count: 1, payload: r }, { tag: 283, type: 5, count: 1, payload: Buffer.from(r) });
  }
  for (const [tag, value] of Object.entries(extras.tags ?? {})) {
    const text = Buffer.from(value + '\0', 'latin1');
    entries.push({ tag: Number(tag), type: 2, count: text.length, payload: text });
  }
  if (extras.resolutionUnit) entries.push({ tag: 296, type: 3, count: 1, value: extras.resolutionUnit });
  if (bps === 32) entries.push({ tag: 339, type: 3, count: 1, value: 3 });
  entries.sort((a, b) => a.tag - b.tag);
  const ifdSize = 2 + entries.length * 12 + 4;
  // payloads longer than 4 bytes follow the IFD, then the pixels
  let offset = 8 + ifdSize;
  const placed = entries.map((e) => {
    if (!e.payload || e.payload.length <= 4) return { e, at: -1 };
    const at = offset;
    offset += e.payload.length + (e.payload.length % 2);
    return { e, at };
  });
  const dataOffset = offset;
  entries.find((e) => e.tag === 273)!.value = dataOffset;
  const buf = Buffer.alloc(dataOffset + bytes);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  buf.writeUInt16LE(entries.length, 8);
  placed.forEach(({ e, at }, k) => {
    const o = 10 + k * 12;
    buf.writeUInt16LE(e.tag, o);
    buf.writeUInt16LE(e.type, o + 2);
    buf.writeUInt32LE(e.count, o + 4);
    if (e.payload && at >= 0) {
      buf.writeUInt32LE(at, o + 8);
      e.payload.copy(buf, at);
    } else if (e.payload) e.payload.copy(buf, o + 8);
    else if (e.type === 3) buf.writeUInt16LE(e.value!, o + 8);
    else buf.writeUInt32LE(e.value!, o + 8);
  });
  buf.writeUInt32LE(0, 10 + entries.length * 12);
  if (bps === 32) for (let i = 0; i < data.length; i++) buf.writeFloatLE(data[i], dataOffset + 4 * i);
  else if (bps === 16) for (let i = 0; i < data.length; i++) buf.writeUInt16LE(data[i], dataOffset + 2 * i);
  else buf.set(data as Uint8Array, dataOffset);
  return buf;
}
