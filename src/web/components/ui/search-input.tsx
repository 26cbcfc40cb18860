/**
 * A search box that stays untouched while the page around it redraws. React re-applies an input's
 * `name` and `type` whenever its element is rendered anew, and the panels holding these boxes
 * render on every update of the calls or agents: memoised, with a stable `onSearch`, the box is
 * rendered again only when its own props change.
 */
import { memo, useCallback, type ChangeEvent, type InputHTMLAttributes, type Ref } from 'react';

export type SearchInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> & {
  /** The box's text after each change. Keep it stable (a state setter, or `useCallback`) to keep the box memoised. */
  onSearch: (text: string) => void;
  ref?: Ref<HTMLInputElement>;
};

export const SearchInput = memo(function SearchInput({ onSearch, ref, ...input }: SearchInputProps) {
  const onChange = useCallback((event: ChangeEvent<HTMLInputElement>) => onSearch(event.target.value), [onSearch]);
  return <input ref={ref} type="search" {...input} onChange={onChange} />;
});
