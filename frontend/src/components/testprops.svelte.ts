/**
 * reactiveProps wraps a component's props in $state so a test can change
 * them after mount, as a parent component does (runes work only in
 * .svelte and .svelte.ts files, not in *.test.ts).
 */
export function reactiveProps<T extends object>(initial: T): T {
  const props = $state(initial);
  return props;
}
