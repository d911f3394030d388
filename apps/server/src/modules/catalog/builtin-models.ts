/**
 * The analysis models that ship with Lamella (packages/analysis). They are registered in the models registry
 * at start; staff can change their access and texts in the back-office afterwards.
 */
import { CURRENT_VERSION, VERSIONS } from '@lamella/analysis/versions';

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

const versions = [...VERSIONS];

export const builtinModels: BuiltinModel[] = [
  {
    internalName: 'grain-size',
    displayName: 'Grain size (ASTM E112)',
    displayNameDe: 'Korngröße (ASTM E112)',
    version: CURRENT_VERSION,
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'layer-thickness',
    displayName: 'Layer thickness',
    displayNameDe: 'Schichtdicke',
    version: CURRENT_VERSION,
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'cracks',
    displayName: 'Cracks',
    displayNameDe: 'Risse',
    version: CURRENT_VERSION,
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'porosity',
    displayName: 'Porosity and phase fraction',
    displayNameDe: 'Porosität und Phasenanteil',
    version: CURRENT_VERSION,
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: true,
  },
  {
    internalName: 'scale-bar',
    displayName: 'Scale bar',
    displayNameDe: 'Maßstabsbalken',
    version: CURRENT_VERSION,
    versions,
    accessType: 'PUBLIC',
    isDefaultVisible: false,
  },
];
