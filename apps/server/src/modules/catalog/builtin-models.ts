/**
 * The analysis models that ship with Lamella (packages/analysis). They are registered in the models registry
 * at start; staff can change their access and texts in the back-office afterwards.
 */
export interface BuiltinModel {
  internalName: string;
  displayName: string;
  /** The German name (as packages/analysis and resultText.models name it). */
  displayNameDe: string;
  version: string;
  versions: string[];
  accessType: 'PUBLIC' | 'PRIVATE';
  isDefaultVisible: boolean;
}

const versions = [
  '20241025',
  '20250101',
  '20261123',
  '20261125',
  '20261126',
  '20261127',
  '20261201',
  '20261202',
  '20261203',
  '20261204',
  '20261207',
  '20261208',
];

export const builtinModels: BuiltinModel[] = [
  {
    internalName: 'grain-size',
    displayName: 'Grain size (ASTM E112)',
    displayNameDe: 'Korngröße (ASTM E112)',
    version: '20261208',
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'layer-thickness',
    displayName: 'Layer thickness',
    displayNameDe: 'Schichtdicke',
    version: '20261208',
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'cracks',
    displayName: 'Cracks',
    displayNameDe: 'Risse',
    version: '20261208',
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'porosity',
    displayName: 'Porosity and phase fraction',
    displayNameDe: 'Porosität und Phasenanteil',
    version: '20261208',
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'scale-bar',
    displayName: 'Scale bar',
    displayNameDe: 'Maßstabsbalken',
    version: '20261208',
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: false,
  },
];
