/** The release, as `--version`, the daemon's health answer and its start-up line report it (kept equal to package.json). */
export const tollgateVersion = '0.1.0';
