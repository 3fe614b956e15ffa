/**
 * tailPath shortens a file path for one line of a card, keeping its end
 * (the program's name and the folders nearest to it): "…/bin/npx". Paths of
 * at most max characters are returned as they are; "/" and "\" both count
 * as separators. The full path belongs in the element's title.
 */
export function tailPath(path: string, max = 48): string {
  if (path.length <= max) return path;
  const parts = path.split(/(?=[\\/])/); // each part keeps its leading separator
  let tail = "";
  for (let i = parts.length - 1; i >= 0; i--) {
    const next = parts[i] + tail;
    if (tail !== "" && next.length + 1 > max) break;
    tail = next;
  }
  if (tail.length + 1 > max) return "…" + tail.slice(tail.length - (max - 1));
  return "…" + tail;
}
