/** The texts of the console's settings tab. */
export const settings = {
  title: 'Organization',
};
