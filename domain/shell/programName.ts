/** The name a shell looks a program up by: the word without its directory ('/usr/bin/rm' → 'rm'). */
export const programName = (word: string): string => {
  const slash = word.lastIndexOf('/');
  return slash < 0 || slash === word.length - 1 ? word : word.slice(slash + 1);
};
