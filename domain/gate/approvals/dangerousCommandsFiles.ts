/**
 * Approval rules for files: recursive and system-path deletes, world-writable permissions, chown to root,
 * bulk deletes through xargs and find, and writes into system configuration or credential files.
 */
import { parseOptions } from '../../shell/commandOptions.ts';
import { viaNames, writtenFiles } from '../../shell/commandFacts.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { isCredentialPath, isSystemConfigPath } from '../../shell/shellPaths.ts';
import { programs, type DangerousRule } from '../floors/commandRule.ts';
import { isOutsideScratch, isRecursiveRm, rmOperands } from '../floors/destructiveCommands.ts';

/** chmod's mode operand: the first word that is not one of its options. */
const chmodMode = (command: SimpleCommand): string | undefined =>
  command.args.find((arg) => !/^-(?:[RvcfH]+|-(?:recursive|verbose|changes|silent|quiet|preserve-root|no-preserve-root|reference=.*))$/.test(arg));

/** A mode that lets other users write: octal with the others-write bit (777, 666, 0o2) or o+w / a+w / o=rw. */
export const isWorldWritableMode = (mode: string): boolean => {
  if (/^[0-7]{1,4}$/.test(mode)) return (parseInt(mode[mode.length - 1]!, 8) & 2) !== 0;
  return mode.split(',').some((clause) => /^[ugoa]*[oa][ugoa]*[+=][rwxXst]*w/.test(clause));
};

const isRecursive = (command: SimpleCommand): boolean => {
  const options = parseOptions(command.args);
  return options.short.has('R') || [...options.long.keys()].some((name) => name.length >= 3 && 'recursive'.startsWith(name));
};

const copyGrammar = { shortWithValue: 'tSgmo', longWithValue: ['target-directory', 'suffix', 'group', 'mode', 'owner'] };

/** Where cp, mv or install write: the -t directory, or the last operand. */
const copyDestination = (command: SimpleCommand): string | undefined => {
  const options = parseOptions(command.args, copyGrammar);
  const target = options.short.get('t') ?? options.long.get('target-directory');
  if (typeof target === 'string') return target;
  return options.operands.length >= 2 ? options.operands[options.operands.length - 1] : undefined;
};

const sedGrammar = { shortWithValue: 'efl', shortAttachedOnly: 'i', longWithValue: ['expression', 'file', 'line-length'] };

/** The files `sed -i` edits in place (none when not in place). */
const sedInPlaceFiles = (command: SimpleCommand): readonly string[] => {
  const options = parseOptions(command.args, sedGrammar);
  if (!options.short.has('i') && !options.long.has('in-place')) return [];
  const scriptGiven = options.short.has('e') || options.short.has('f') || options.long.has('expression') || options.long.has('file');
  return scriptGiven ? options.operands : options.operands.slice(1);
};

/** perl -i / ruby -i: an option cluster with i before any value-taking letter. */
const perlInPlaceFiles = (command: SimpleCommand): readonly string[] =>
  command.args.some((arg) => /^-[a-hj-zA-Z]*i/.test(arg)) ? command.args.filter((arg) => !arg.startsWith('-')) : [];

const findValuePrimaries = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type',
  '-xtype', '-user', '-group', '-perm', '-size', '-newer', '-mtime', '-atime', '-ctime', '-mmin', '-amin', '-cmin',
  '-maxdepth', '-mindepth', '-samefile', '-inum', '-links', '-uid', '-gid', '-fprint', '-fprintf', '-printf', '-fls',
]);

const findDeletes = (command: SimpleCommand): boolean =>
  command.args.some((arg, i) => arg === '-delete' && !findValuePrimaries.has(command.args[i - 1] ?? ''));

export const fileRules: readonly DangerousRule[] = [
  {
    id: 'recursive-delete',
    reason: 'Deletes a directory tree recursively.',
    programs: programs('rm'),
    matches: isRecursiveRm,
    asks: ['rm -r build/', 'rm -rf ./build', 'rm build/ -rf', 'rm --recursive old', 'sudo rm -R /opt/app/cache', 'rm -r -f dist'],
    allows: ['rm file.txt', 'rm -f *.log', 'echo rm -rf build', 'grep -r rm .'],
  },
  {
    id: 'delete-in-root-path',
    reason: 'Deletes files by absolute path outside the scratch directories.',
    programs: programs('rm'),
    matches: (command) => rmOperands(command).some(isOutsideScratch),
    asks: ['rm /etc/hosts.bak', 'rm -f /usr/local/bin/tool', 'rm /home/alice/notes.txt'],
    allows: ['rm /tmp/x.log', 'rm ./notes.txt', 'rm -f /var/tmp/cache.db'],
  },
  {
    id: 'chmod-world-writable',
    reason: 'Makes files writable by every user on the machine.',
    programs: programs('chmod'),
    matches: (command) => isWorldWritableMode(chmodMode(command) ?? ''),
    asks: ['chmod 777 script.sh', 'chmod 666 /srv/data.db', 'chmod o+w shared', 'chmod a+rw file', 'chmod 0777 dir', 'chmod u+x,o+w file'],
    allows: ['chmod 755 script.sh', 'chmod +x run.sh', 'chmod o-w file', 'chmod 644 file', 'chmod g+w file'],
  },
  {
    id: 'chmod-recursive-world-writable',
    reason: 'Makes a whole directory tree writable by every user on the machine.',
    programs: programs('chmod'),
    matches: (command) => isRecursive(command) && isWorldWritableMode(chmodMode(command) ?? ''),
    asks: ['chmod -R 777 /srv/app', 'chmod --recursive a+w data', 'chmod -R o+w .'],
    allows: ['chmod 777 file', 'chmod -R 755 /srv/app', 'chmod --recursive u+w src'],
  },
  {
    id: 'chown-recursive-to-root',
    reason: 'Gives root ownership of a whole directory tree.',
    programs: programs('chown'),
    matches: (command) => isRecursive(command) && /^(?:root|0)(?::|\.|$)/.test(parseOptions(command.args).operands[0] ?? ''),
    asks: ['chown -R root /srv/app', 'chown --recursive root:root data', 'sudo chown -R 0:0 dir'],
    allows: ['chown root file', 'chown -R alice /srv/app', 'chown -R www-data:www-data /var/www'],
  },
  {
    id: 'xargs-rm',
    reason: 'Deletes every file named on its input, which the command line does not show.',
    programs: programs('rm'),
    matches: (command) => viaNames(command).includes('xargs'),
    asks: ['find . -name "*.tmp" | xargs rm', 'ls | xargs -I{} rm {}', 'cat list | xargs rm -f', "xargs -0 sh -c 'rm \"$@\"' _"],
    allows: ['find . -name "*.tmp" | xargs ls -l', 'xargs echo rm < list', 'rm -f a.txt'],
  },
  {
    id: 'find-exec-rm',
    reason: 'Deletes every file a find expression matches.',
    programs: programs('rm'),
    matches: (command) => viaNames(command).includes('find'),
    asks: ['find . -name "*.o" -exec rm {} \\;', 'find /tmp -type f -execdir rm -f {} +', 'find . -ok /bin/rm {} \\;'],
    allows: ['find . -name "*.o" -exec ls -l {} \\;', "find . -name 'rm'"],
  },
  {
    id: 'find-delete',
    reason: 'Deletes every file a find expression matches.',
    programs: programs('find'),
    matches: findDeletes,
    asks: ["find /var/log -name '*.gz' -delete", 'find . -empty -delete'],
    allows: ["find . -name '*.gz'", "find . -name '-delete'", 'find . -type f -print'],
  },
  {
    id: 'redirect-to-system-config',
    reason: 'Overwrites or appends to a system configuration file through redirection.',
    matches: (command) => writtenFiles(command).some(isSystemConfigPath),
    asks: ['echo "127.0.0.1 x" >> /etc/hosts', 'cat conf > /etc/nginx/nginx.conf', '> /etc/motd', 'echo x > /private/etc/hosts', "cat <<'EOF' > /etc/hosts\n127.0.0.1 x\nEOF"],
    allows: ['cat /etc/hosts', 'cat /etc/hosts > hosts.bak', 'echo /etc/hosts > list.txt'],
  },
  {
    id: 'redirect-to-sensitive-file',
    reason: 'Overwrites or appends to SSH keys, a login script, a credential file or Hermes secrets through redirection.',
    matches: (command) => writtenFiles(command).some(isCredentialPath),
    asks: [
      'echo key >> ~/.ssh/authorized_keys', 'echo OPENAI_API_KEY=x > ~/.hermes/.env', 'echo "alias ls=rm" >> ~/.bashrc',
      'cat creds > $HOME/.netrc', 'echo "approvals: {mode: off}" > ~/.hermes/config.yaml',
    ],
    allows: ['cat ~/.ssh/id_rsa.pub', 'echo hi > ~/notes.txt', 'cat ~/.bashrc > bashrc.bak'],
  },
  {
    id: 'tee-to-sensitive-file',
    reason: 'Writes system configuration, SSH keys, a login script or Hermes secrets through tee.',
    programs: programs('tee'),
    matches: (command) => parseOptions(command.args).operands.some((path) => isSystemConfigPath(path) || isCredentialPath(path)),
    asks: ['echo x | sudo tee /etc/apt/sources.list.d/x.list', 'echo key | tee -a ~/.ssh/authorized_keys', 'tee ~/.hermes/.env < env.txt'],
    allows: ['echo x | tee out.log', 'tee -a build.log', 'cat /etc/hosts | tee hosts.copy'],
  },
  {
    id: 'copy-into-system-config',
    reason: 'Copies, moves or installs a file into system configuration.',
    programs: programs('cp', 'mv', 'install', 'rsync'),
    matches: (command) => isSystemConfigPath(copyDestination(command) ?? ''),
    asks: ['cp nginx.conf /etc/nginx/nginx.conf', 'sudo mv app.service /etc/systemd/system/', 'install -m 644 x.conf /etc/x.conf', 'cp -t /etc/ x.conf'],
    allows: ['cp /etc/hosts ./hosts.bak', 'mv a.txt b.txt', 'cp -r /etc/nginx ./nginx-backup'],
  },
  {
    id: 'copy-into-sensitive-file',
    reason: 'Copies, moves or installs a file over SSH keys, a login script, a credential file or Hermes secrets.',
    programs: programs('cp', 'mv', 'install', 'rsync'),
    matches: (command) => isCredentialPath(copyDestination(command) ?? ''),
    asks: ['cp key.pub ~/.ssh/authorized_keys', 'mv evil ~/.bashrc', 'cp env.prod ~/.hermes/.env', 'install -m 600 k /root/.ssh/id_ed25519'],
    allows: ['cp ~/.ssh/config /tmp/ssh-config', 'cp ~/.bashrc bashrc.bak', 'mv notes.txt ~/notes.txt'],
  },
  {
    id: 'sed-in-place-system-config',
    reason: 'Edits a system configuration file in place.',
    programs: programs('sed'),
    matches: (command) => sedInPlaceFiles(command).some(isSystemConfigPath),
    asks: ["sed -i 's/a/b/' /etc/ssh/sshd_config", "sudo sed --in-place -e 's/x/y/' /etc/hosts", "sed -i.bak 's/a/b/' /private/etc/hosts"],
    allows: ["sed 's/a/b/' /etc/hosts", "sed -i 's/a/b/' config/app.conf", "sed -n '/etc/p' notes.txt"],
  },
  {
    id: 'in-place-edit-sensitive-file',
    reason: 'Edits SSH files, a login script, a credential file or Hermes config and secrets in place.',
    programs: programs('sed', 'perl', 'ruby'),
    matches: (command) =>
      (command.program === 'sed' ? sedInPlaceFiles(command) : perlInPlaceFiles(command)).some(isCredentialPath),
    asks: ["sed -i 's/yolo: false/yolo: true/' ~/.hermes/config.yaml", "perl -pi -e 's/a/b/' ~/.bashrc", "sed -i '/old/d' ~/.ssh/known_hosts"],
    allows: ["sed 's/a/b/' ~/.bashrc", "perl -ne 'print' ~/.bashrc", "sed -i 's/a/b/' notes.txt"],
  },
];
