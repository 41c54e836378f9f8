// The package's public entry: the link search of decision 0053, one ranking for every place
// that searches a person's links. Plain functions over strings: no DOM, no I/O.
export * from './search-entry.ts';
export * from './link-search.ts';
