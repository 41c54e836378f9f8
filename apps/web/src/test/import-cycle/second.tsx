// The other half of the cycle that first.tsx describes.
import { First } from './first';

export const Second = () => <p>{First.name}</p>;
