import { nanoid } from 'nanoid';

/** A new id: 21 characters from letters, digits, `-` and `_` (spec §9). */
export const newId = (): string => nanoid(21);
