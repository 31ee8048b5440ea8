/**
 * What the table's messages change in the state the page keeps (docs/protocol.md): an
 * event carries only what changed in the seat's view since the version before, and a
 * snapshot sent to everybody carries only the score sheet's rows after those the page
 * has. Both are pure functions; `null` means the page does not have what the message
 * builds on (it missed a message) and must ask for a fresh snapshot.
 */

/**
 * The view after `message` (an `event`), given the view the page has and its version.
 * An event with a whole `view` replaces it; one with `changed` and `gone` applies to the
 * view of the version just before it.
 * @param {Record<string, unknown> | null} view
 * @param {number | null} version
 * @param {{v: number, view?: Record<string, unknown>, changed?: Record<string, unknown>, gone?: string[]}} message
 * @returns {Record<string, unknown> | null}
 */
export function applyEvent(view, version, message) {
  if (message.view) return message.view;
  if (!view || version === null || message.v !== version + 1 || !message.changed) return null;
  const next = { ...view, ...message.changed };
  for (const key of message.gone || []) delete next[key];
  return next;
}

/**
 * The whole score sheet of a snapshot's `match`, given the match of the snapshot before
 * (`null`: none): `match.sheet_from` is the index of the first row the snapshot carries,
 * the rows before it are the page's own.
 * @param {{sheet: {rows: unknown[]}} | null} previous
 * @param {{sheet: {rows: unknown[]}, sheet_from?: number}} match
 * @returns {{rows: unknown[]} | null}
 */
export function wholeSheet(previous, match) {
  const from = match.sheet_from || 0;
  if (!from) return match.sheet;
  const rows = previous && previous.sheet ? previous.sheet.rows : null;
  if (!rows || rows.length < from) return null;
  return { ...match.sheet, rows: rows.slice(0, from).concat(match.sheet.rows) };
}
