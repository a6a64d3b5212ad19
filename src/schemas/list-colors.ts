/**
 * The colors a list gets when it is made without one (CONTRACT C6.4: a
 * list's `color` is always a #RRGGBB). Eight colors that read on the
 * dashboard's light background, picked by the first hex digit of the list's
 * id: the same list always gets the same color, and migration 0008 gives
 * lists made before it the very color this gives them (README, "API notes").
 */
export const LIST_PALETTE = ['#3B82F6', '#10B981', '#F59E0B', '#EF4444', '#8B5CF6', '#EC4899', '#14B8A6', '#F97316'] as const;

/** The palette's color of a list id (a UUID). */
export function paletteColor(id: string): string {
  const digit = Number.parseInt(id.charAt(0), 16);
  return LIST_PALETTE[(Number.isNaN(digit) ? 0 : digit) % LIST_PALETTE.length] as string;
}
