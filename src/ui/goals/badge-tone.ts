/** The colour of a badge: what kind of state it marks. */
export type BadgeTone = 'accent' | 'success' | 'danger' | 'neutral';
