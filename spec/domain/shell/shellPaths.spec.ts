import { expect } from 'chai';
import {
  homeRelative,
  isCredentialPath,
  isFilesystemRoot,
  isHomeDirectory,
  isRawBlockDevice,
  isSystemConfigPath,
  isSystemDirectory,
  normalizePath,
} from '../../../domain/shell/shellPaths.ts';

describe('shell paths', () => {
  it('normalises slashes, . and .. lexically, and leaves relative paths alone', () => {
    expect(normalizePath('//usr/./lib/../bin/')).to.equal('/usr/bin');
    expect(normalizePath('/../..')).to.equal('/');
    expect(normalizePath('./build/..')).to.equal('./build/..');
  });

  it('knows the filesystem root in its spellings', () => {
    for (const path of ['/', '//', '/.', '/tmp/..', '/*', '/.*']) expect(isFilesystemRoot(path), path).to.equal(true);
    for (const path of ['/tmp', './', '*', '/tmp/*']) expect(isFilesystemRoot(path), path).to.equal(false);
  });

  it('knows top-level system directories and globs over them', () => {
    for (const path of ['/etc', '/usr/', '/var/*', '//boot', '/lib64']) expect(isSystemDirectory(path), path).to.equal(true);
    for (const path of ['/etc/nginx', '/usr/local/bin', '/data', 'etc']) expect(isSystemDirectory(path), path).to.equal(false);
  });

  it('finds the part of a path below a home directory', () => {
    expect(homeRelative('~')).to.equal('');
    expect(homeRelative('$HOME/.ssh/id_rsa')).to.equal('.ssh/id_rsa');
    expect(homeRelative('${HOME}//x/./y')).to.equal('x/y');
    expect(homeRelative('/home/alice/.bashrc')).to.equal('.bashrc');
    expect(homeRelative('/srv/app')).to.equal(undefined);
  });

  it('knows whole home directories', () => {
    for (const path of ['~', '~/', '$HOME', '${HOME}/*', '/root', '/home', '/home/*', '/home/bob']) expect(isHomeDirectory(path), path).to.equal(true);
    for (const path of ['~/build', '/home/bob/tmp', '~user']) expect(isHomeDirectory(path), path).to.equal(false);
  });

  it('knows raw disks and volumes, not pseudo-devices', () => {
    for (const path of ['/dev/sda', '/dev/sda1', '/dev/nvme0n1p2', '/dev/mmcblk0', '/dev/xvdf', '/dev/vda', '/dev/md0', '/dev/dm-0', '/dev/mapper/vg-root', '/dev/vg0/data', '/dev/disk2', '/dev/rdisk2s1', '/dev/disk/by-id/ata-X', '//dev/sda'])
      expect(isRawBlockDevice(path), path).to.equal(true);
    for (const path of ['/dev/null', '/dev/zero', '/dev/urandom', '/dev/stdout', '/dev/pts/0', '/dev/fd/1', '/dev/shm/x', '/home/me/dev/sda', 'dev/sda', '/dev/disk'])
      expect(isRawBlockDevice(path), path).to.equal(false);
  });

  it('knows system configuration paths', () => {
    for (const path of ['/etc/hosts', '/etc', '/private/etc/sudoers', '/tmp/../etc/passwd']) expect(isSystemConfigPath(path), path).to.equal(true);
    for (const path of ['./etc/hosts', '/etcetera', '/srv/etc']) expect(isSystemConfigPath(path), path).to.equal(false);
  });

  it('knows credential files, login scripts and Hermes secrets', () => {
    for (const path of ['~/.ssh/authorized_keys', '$HOME/.ssh', '/root/.ssh/id_ed25519', '~/.hermes/.env', '~/.hermes/config.yaml', '$HERMES_HOME/.env', '~/.bashrc', '/home/a/.netrc', '~/.aws/credentials'])
      expect(isCredentialPath(path), path).to.equal(true);
    for (const path of ['~/notes.txt', './.env', '~/.hermes/logs/x.log', '~/.sshx', '.ssh/config']) expect(isCredentialPath(path), path).to.equal(false);
  });
});
