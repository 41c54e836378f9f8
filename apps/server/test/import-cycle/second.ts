// The other half of the cycle that first.ts describes.
import { first } from './first.ts';

export const second = () => first;
