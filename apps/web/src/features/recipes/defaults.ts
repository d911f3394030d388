import type { RecipeClass } from '@lamella/contracts';

/** Colours offered for new classes, in order. */
export const CLASS_COLOURS = ['#e8590c', '#1c7ed6', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#e03131', '#5f3dc4'];

/** Two classes to start from: the layer to measure and the rest (names in the user's language). */
export function defaultClasses(layerName: string, otherName: string): RecipeClass[] {
  return [
    { name: layerName, colour: CLASS_COLOURS[0] },
    { name: otherName, colour: CLASS_COLOURS[1] },
  ];
}
