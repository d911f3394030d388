import { describe, expect, it } from 'vitest';
import { translate } from '@lamella/i18n';
import { addClass, canAddClass, CLASS_COLOURS, defaultClasses, recipeClasses, removeClass, renameClass, type DefaultClassName } from './defaults';

/** The default names as read in `lng` (the real translations, as the server serves them to the app). */
const reader = (lng: 'en' | 'de') => (d: DefaultClassName) => translate(lng, d.key, d.vars);
const names = (classes: ReturnType<typeof defaultClasses>, lng: 'en' | 'de') => recipeClasses(classes, reader(lng)).map((c) => c.name);

describe('the recipe editor’s class names', () => {
  it('default names follow the language: the same classes read in English and in German', () => {
    const classes = addClass(defaultClasses());
    expect(names(classes, 'en')).toEqual(['Layer to measure', 'Other', 'Class 3']);
    expect(names(classes, 'de')).toEqual(['Zu messende Schicht', 'Sonstiges', 'Klasse 3']);
    expect(recipeClasses(classes, reader('de')).map((c) => c.colour)).toEqual(CLASS_COLOURS.slice(0, 3));
  });

  it('a name the user gave stays theirs in every language; the others still follow the language', () => {
    const classes = renameClass(defaultClasses(), 1, 'Resin');
    expect(names(classes, 'en')).toEqual(['Layer to measure', 'Resin']);
    expect(names(classes, 'de')).toEqual(['Zu messende Schicht', 'Resin']);
    // even an emptied field is the user's (the server asks for a name on saving)
    expect(names(renameClass(classes, 0, ''), 'de')).toEqual(['', 'Resin']);
  });

  it('removing a class keeps the others’ names and colours; one colour per class at most', () => {
    const three = renameClass(addClass(defaultClasses()), 2, 'Pores');
    expect(recipeClasses(removeClass(three, 0), reader('en'))).toEqual([
      { name: 'Other', colour: CLASS_COLOURS[1] },
      { name: 'Pores', colour: CLASS_COLOURS[2] },
    ]);
    let all = defaultClasses();
    while (canAddClass(all)) all = addClass(all);
    expect(all).toHaveLength(CLASS_COLOURS.length);
    expect(addClass(all)).toBe(all);
    expect(names(all, 'de').at(-1)).toBe(`Klasse ${CLASS_COLOURS.length}`);
  });
});
