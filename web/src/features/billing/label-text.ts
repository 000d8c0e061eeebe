/**
 * Label keys and values as the data holds them. HTML collapses white space, so ' org' and 'org' would read the
 * same, and '( org)' looked like a typo: white space at either end is drawn as '␣' (U+2423 OPEN BOX), one per
 * character, and an empty text as '(empty)'. Only what is shown changes; the value sent to the api stays raw.
 */
export const VISIBLE_SPACE = '\u2423';
export const EMPTY_LABEL = '(empty)';

export function visibleLabel(text: string): string {
  if (text === '') return EMPTY_LABEL;
  const mark = (run: string) => VISIBLE_SPACE.repeat([...run].length);
  return text.replace(/^\s+/u, mark).replace(/\s+$/u, mark);
}
