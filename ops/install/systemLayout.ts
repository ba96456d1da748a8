/**
 * Where the separate-principal install puts things (FHS), every location overridable so tests use a temp root:
 *
 *   /etc/tollgate/tollgate.yaml          configuration            root:tollgate  0640 (folder 0750)
 *   /var/lib/tollgate                    ledger, payloads, keys,  tollgate:tollgate 0700
 *                                        checkpoints
 *   /run/tollgate/tollgate.sock          runtime socket           folder tollgate:tollgate 0755, socket 0666
 *   /run/tollgate/human/tollgate.sock    human socket             folder tollgate:tollgate-approvers 0750, socket 0660
 *   /opt/tollgate                        the code (bin, adapters, root:root, files 0644/0755
 *                                        domain, ops, projections,
 *                                        package.json, node_modules)
 *   /usr/local/bin/tollgate              symlink to the installed entry point
 *   /etc/systemd/system/tollgate.service the unit (when /etc/systemd exists)
 *   /etc/tmpfiles.d/tollgate.conf        recreates the /run folders at boot (with the unit)
 */
import { join } from 'node:path';

export interface SystemLayoutOptions {
  /** Root under which every default location is placed. @defaultValue '/' */
  readonly prefix?: string;
  readonly etcDir?: string;
  readonly stateDir?: string;
  readonly runDir?: string;
  readonly codeDir?: string;
  readonly binDir?: string;
  readonly unitDir?: string;
  readonly tmpfilesDir?: string;
  /** The daemon's system user. @defaultValue 'tollgate' */
  readonly user?: string;
  /** The daemon's primary group. @defaultValue the user's name */
  readonly group?: string;
  /** Who may enter the human socket's folder. @defaultValue 'tollgate-approvers' */
  readonly approverGroup?: string;
}

export interface SystemLayout {
  readonly prefix: string;
  readonly etcDir: string;
  readonly configFile: string;
  readonly stateDir: string;
  readonly runDir: string;
  readonly socket: string;
  readonly humanDir: string;
  readonly humanSocket: string;
  readonly codeDir: string;
  readonly binDir: string;
  readonly binLink: string;
  readonly unitDir: string;
  readonly unitFile: string;
  readonly tmpfilesDir: string;
  readonly tmpfilesFile: string;
  readonly user: string;
  readonly group: string;
  readonly approverGroup: string;
}

export const systemLayout = (o: SystemLayoutOptions = {}): SystemLayout => {
  const prefix = o.prefix ?? '/';
  const under = (...parts: string[]) => join(prefix, ...parts);
  const etcDir = o.etcDir ?? under('etc', 'tollgate');
  const runDir = o.runDir ?? under('run', 'tollgate');
  const humanDir = join(runDir, 'human');
  const binDir = o.binDir ?? under('usr', 'local', 'bin');
  const unitDir = o.unitDir ?? under('etc', 'systemd', 'system');
  const tmpfilesDir = o.tmpfilesDir ?? under('etc', 'tmpfiles.d');
  const user = o.user ?? 'tollgate';
  return {
    prefix, etcDir, configFile: join(etcDir, 'tollgate.yaml'),
    stateDir: o.stateDir ?? under('var', 'lib', 'tollgate'),
    runDir, socket: join(runDir, 'tollgate.sock'), humanDir, humanSocket: join(humanDir, 'tollgate.sock'),
    codeDir: o.codeDir ?? under('opt', 'tollgate'),
    binDir, binLink: join(binDir, 'tollgate'),
    unitDir, unitFile: join(unitDir, 'tollgate.service'),
    tmpfilesDir, tmpfilesFile: join(tmpfilesDir, 'tollgate.conf'),
    user, group: o.group ?? user, approverGroup: o.approverGroup ?? 'tollgate-approvers',
  };
};

/** The top-level entries of a clone that make a working tollgate (the rest is tests, docs and git). */
export const codeEntries = ['bin', 'adapters', 'domain', 'ops', 'projections', 'package.json', 'node_modules'] as const;

/** Written into the installed copy, so uninstall removes only a folder this install made. */
export const codeMarker = '.tollgate-system-install';
