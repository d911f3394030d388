import type { Job } from '@lamella/contracts';
import type { FieldStatistics } from './statistics.ts';
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
}

/** One model's part of a specimen report: its fields (images) with their values and the statistics. */
export interface SpecimenSection {
  model: string;
  modelLabel: string;
  methods: string[];
  columns: SpecimenColumn[];
  rows: Array<{ field: number; filename: string; jobId: string; modelVersion: string; values: Record<string, number | null> }>;
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
