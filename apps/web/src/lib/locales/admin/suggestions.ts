/** The texts of the console's suggestions tab. */
export const suggestions = {
  title: 'Suggestions',
};
