/**
 * Which arrays these are, as a string that changes only when one of them is a new array: a memo's
 * dependency over a varying number of lists (one per provider on screen).
 */
const ids = new WeakMap<object, number>();
let nextID = 1;

export const identityOfLists = (lists: readonly (object | undefined)[]): string =>
  lists
    .map((list) => {
      if (!list) return '-';
      let id = ids.get(list);
      if (id === undefined) {
        id = nextID++;
        ids.set(list, id);
      }
      return id;
    })
    .join(',');
