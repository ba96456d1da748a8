/**
 * What a path argument names, judged from its text alone (no filesystem access): the root, a top-level system
 * directory, a home directory, a raw disk, system configuration, a credential file. Paths are compared after
 * lexical normalisation, so '//', '/./' and '/usr/..' cannot hide the root.
 */

/** Collapses repeated slashes and resolves '.' and '..' lexically; leaves relative paths alone. */
export const normalizePath = (path: string): string => {
  if (!path.startsWith('/')) return path;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return '/' + segments.join('/');
};

/** '/', and globs that name everything directly under it ('/*', '/.*'). */
export const isFilesystemRoot = (path: string): boolean => {
  const normal = normalizePath(path);
  return normal === '/' || rootGlobs.has(normal);
};
const rootGlobs = new Set(['/*', '/.*', '/**', '/*/', '/{*,.*}']);

/** Top-level directories without which the system does not boot or run. */
export const systemDirectories: readonly string[] = [
  'bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'libx32', 'opt', 'root', 'sbin', 'srv', 'usr',
  'var', 'proc', 'sys', 'snap', 'Applications', 'Library', 'System', 'Users', 'private',
];
const systemDirectorySet = new Set(systemDirectories);

/** A top-level system directory itself, or a glob over its whole content ('/etc', '/usr/*'). */
export const isSystemDirectory = (path: string): boolean => {
  const segments = normalizePath(path).split('/');
  if (segments[0] !== '' || !systemDirectorySet.has(segments[1]!)) return false;
  return segments.length === 2 || (segments.length === 3 && isWholeDirectoryGlob(segments[2]!));
};

/** A glob that names everything in a directory ('*', '.*'). */
const isWholeDirectoryGlob = (segment: string): boolean => segment === '*' || segment === '.*' || segment === '**';

const homePrefixes = [/^~(?=\/|$)/, /^\$HOME(?=\/|$)/, /^\$\{HOME\}(?=\/|$)/, /^\/root(?=\/|$)/, /^\/home\/[^/]+(?=\/|$)/, /^\/Users\/[^/]+(?=\/|$)/];

/**
 * The part of a path below a home directory ('' for the home itself), or undefined when the path is not in a
 * home directory. Homes are '~', '$HOME', '/root', '/home/NAME' and '/Users/NAME'.
 */
export const homeRelative = (path: string): string | undefined => {
  const text = path.startsWith('/') ? normalizePath(path) : path;
  for (const prefix of homePrefixes) {
    const match = prefix.exec(text);
    if (match) return normalizeRelative(text.slice(match[0].length));
  }
  return undefined;
};
const normalizeRelative = (rest: string): string => normalizePath('/' + rest).slice(1);

/** A whole home directory, the directory holding homes, or a glob over either ('~', '$HOME/*', '/home'). */
export const isHomeDirectory = (path: string): boolean => {
  const relative = homeRelative(path);
  if (relative !== undefined) return relative === '' || isWholeDirectoryGlob(relative);
  const normal = normalizePath(path);
  return normal === '/home' || normal === '/home/*' || normal === '/Users' || normal === '/Users/*';
};

/**
 * A raw disk or volume: writing to it destroys the file systems on it. Linux SCSI/SATA, IDE, virtio, Xen, NVMe
 * and SD names, md RAID, device mapper, LVM's /dev/VG/LV, loop and network block devices, macOS disks, and the
 * udev /dev/disk/by-* links to all of these.
 */
export const isRawBlockDevice = (path: string): boolean => {
  const normal = normalizePath(path);
  if (namedDisk.test(normal)) return true;
  const lvm = lvmVolume.exec(normal);
  return lvm !== null && !notVolumeGroups.has(lvm[1]!);
};
const namedDisk =
  /^\/dev\/(?:(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd)[^/]*|r?disk\d[^/]*|mapper\/[^/]+|disk\/by-(?:id|uuid|path|label|partuuid|partlabel)\/[^/]+)$/;
const lvmVolume = /^\/dev\/([^/]+)\/[^/]+$/;
// Directories under /dev that hold terminals, descriptors, shared memory and the like, not volume groups.
const notVolumeGroups = new Set(['pts', 'fd', 'shm', 'mqueue', 'hugepages', 'net', 'input', 'snd', 'dri', 'bus', 'char', 'block', 'cpu', 'usb', 'v4l', 'serial', 'disk', 'mapper', 'vfio', 'dma_heap']);

/** System configuration: /etc and macOS's /private/etc. */
export const isSystemConfigPath = (path: string): boolean => {
  const normal = normalizePath(path);
  return /^\/(?:private\/)?etc(?:\/|$)/.test(normal);
};

const credentialFiles = [
  /^\.ssh(?:\/|$)/,
  /^\.hermes\/(?:\.env|config\.yaml)$/,
  /^\.(?:bashrc|zshrc|profile|bash_profile|bash_login|zprofile|zshenv|zlogin)$/,
  /^\.(?:netrc|pgpass|npmrc|pypirc|git-credentials)$/,
  /^\.aws\/(?:credentials|config)$/,
  /^\.kube\/config$/,
  /^\.docker\/config\.json$/,
  /^\.gnupg(?:\/|$)/,
];

/** Keys, secrets and login scripts in a home directory, and the Hermes home's .env and config.yaml. */
export const isCredentialPath = (path: string): boolean => {
  if (/^\$\{?HERMES_HOME\}?\/(?:\.env|config\.yaml)$/.test(path)) return true;
  const relative = homeRelative(path);
  return relative !== undefined && credentialFiles.some((file) => file.test(relative));
};
