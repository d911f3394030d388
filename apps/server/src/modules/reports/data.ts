import type { Job } from '@lamella/contracts';
import type { FieldStatistics, GrainSizeStatistics } from './statistics.ts';
import type { ReportText } from './text.ts';

/** What the PDF and XLSX writers get: gathered by service.ts, drawn by job-pdf.ts, specimen-pdf.ts, xlsx.ts. */

/** The reader's letterhead: company (or name) and logo from the profile. */
export interface Letterhead {
  company: string;
  author: string;
  logo: Buffer | null;
}

export interface JobReportData {
  tx: ReportText;
  job: Job;
  letterhead: Letterhead;
  /** The analysed image (display rendition as JPEG) and the result's overlay images. */
  picture: Buffer | null;
  overlays: Array<{ filename: string; data: Buffer }>;
  generatedAt: Date;
}

/** How a value of a field is shown: decimals, an integer (counts), or 4 significant digits (pixel size). */
export type Digits = number | 'int' | 'sig4';

export interface SpecimenColumn {
  key: string;
  label: string;
  unit: string;
  digits: Digits;
}

export interface SpecimenStat {
  key: string;
  label: string;
  unit: string;
  digits: Digits;
  /** `ci`: mean, s, 95 % CI and %RA (E112, E562); `range`: mean, s, min and max across fields (layers). */
  kind: 'ci' | 'range';
  stats: FieldStatistics;
  /** The standard and method the statistics follow, e.g. "ASTM E112 §16, planimetric: N_A". */
  basis: string;
  /** E112: G of the mean N_A or L̄ (the only G computed from the statistics), with its label. */
  g?: { label: string; stats: GrainSizeStatistics };
  /** Fewer than 5 fields (E112 §16, E562): more are suggested. */
  fewFields: boolean;
}

/** Which job represents a field for a model, and with what (the specimen report lists it per field). */
export interface SpecimenRow {
  field: number;
  filename: string;
  jobId: string;
  modelVersion: string;
  /** Pixel size (µm/px) and where it came from, as text in the reader's language. */
  calibration: string;
  pixelSizeUm: number | null;
  /** The job ran on a user's mask. */
  mask: boolean;
  /** The field's job was accepted by a member (locked); else it is the newest finished job of the project. */
  accepted: boolean;
  values: Record<string, number | null>;
  /** Keys of `values` derived from G by E112's formulas (results that stored G only). */
  derived: string[];
}

/** One model's part of a specimen report: its fields (images) with their values and the statistics. */
export interface SpecimenSection {
  model: string;
  modelLabel: string;
  methods: string[];
  columns: SpecimenColumn[];
  rows: SpecimenRow[];
  stats: SpecimenStat[];
}

export interface SpecimenReportData {
  tx: ReportText;
  letterhead: Letterhead;
  project: { id: string; name: string; description: string | null; ownerName: string };
  fieldCount: number;
  sections: SpecimenSection[];
  generatedAt: Date;
}
