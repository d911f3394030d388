import type { RecipeClass } from '@lamella/contracts';

/** Colours offered for new classes, in order. */
export const CLASS_COLOURS = ['#e8590c', '#1c7ed6', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#e03131', '#5f3dc4'];

/** The name a class has until the user names it: a translation key (and its values), read in the current language. */
export type DefaultClassName =
  | { key: 'recipes.editor.layerClass'; vars?: undefined }
  | { key: 'recipes.editor.otherClass'; vars?: undefined }
  | { key: 'recipes.editor.newClass'; vars: { index: number } };

/**
 * A class of the recipe editor. `name` is what the user typed; while it is undefined the class keeps its default
 * name, shown (and saved) in the language of the moment, so a language switch renames it and never a user's name.
 */
export interface EditorClass {
  colour: string;
  defaultName: DefaultClassName;
  name?: string;
}

/** Two classes to start from: the layer to measure and the rest. */
export function defaultClasses(): EditorClass[] {
  return [
    { colour: CLASS_COLOURS[0], defaultName: { key: 'recipes.editor.layerClass' } },
    { colour: CLASS_COLOURS[1], defaultName: { key: 'recipes.editor.otherClass' } },
  ];
}

/** Whether another class can be added (one colour each). */
export const canAddClass = (classes: EditorClass[]) => classes.length < CLASS_COLOURS.length;

/** A further class, "Class n" by default, in the next colour. */
export function addClass(classes: EditorClass[]): EditorClass[] {
  if (!canAddClass(classes)) return classes;
  const index = classes.length + 1;
  return [...classes, { colour: CLASS_COLOURS[classes.length], defaultName: { key: 'recipes.editor.newClass', vars: { index } } }];
}

/** The user names class `index`: from now on its name is theirs, whatever the language. */
export function renameClass(classes: EditorClass[], index: number, name: string): EditorClass[] {
  return classes.map((c, i) => (i === index ? { ...c, name } : c));
}

export function removeClass(classes: EditorClass[], index: number): EditorClass[] {
  return classes.filter((_, i) => i !== index);
}

/** The classes as shown and saved: the user's names, and the default names in the language `translate` reads. */
export function recipeClasses(classes: EditorClass[], translate: (name: DefaultClassName) => string): RecipeClass[] {
  return classes.map((c) => ({ name: c.name ?? translate(c.defaultName), colour: c.colour }));
}
