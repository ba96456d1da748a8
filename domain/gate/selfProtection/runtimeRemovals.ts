/**
 * The interpreters tollgate and Hermes run on (node, python), removed or disabled (red teams 13 and 15): their files
 * found at run time (`rm "$(command -v node)"`, `: > $(which node)`, `os.remove(sys.executable)`), the folders
 * version managers and environment tools keep them in (`rm -rf ~/.nvm`, `~/.local/share/uv/python`, a pipx venv),
 * and the managers' own removal verbs (mise, asdf, nodenv, pyenv, conda, dpkg, rpm, pipx, update-alternatives).
 * Pure: no I/O.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/** Programs that delete, move or disable the file or folder they are given (cp, ln and install: their destination). */
const removers = new Set(['rm', 'rmdir', 'unlink', 'shred', 'mv', 'chmod', 'chown', 'chattr', 'truncate', 'cp', 'ln', 'install', 'rsync', 'find', 'srm', 'wipe']);
const copiers = new Set(['cp', 'ln', 'install']);

/**
 * Where interpreters and the environments Hermes is installed in live: version managers' roots (`~/.nvm`, `~/.pyenv`,
 * mise's, asdf's, volta's, fnm's, nodenv's), uv's pythons and tools, pipx's venvs, conda's installs, the user site.
 * The root itself or the folders that hold the interpreters count; a cache beside them (`~/.nvm/.cache`) does not.
 */
const runtimeRoot = /(?:^|\/)(?:\.nvm|\.pyenv|\.volta|\.asdf|\.fnm|\.nodenv|\.local\/share\/(?:mise|fnm|rtx|nvm|uv|pipx)|\.local\/pipx|miniconda3|anaconda3|miniforge3|mambaforge|\.conda)(?:\/(?:versions|installs|shims|bin|node-versions|python|tools|venvs|envs|pkgs|lib|plugins|alias|nvm\.sh)(?:\/[^/]*)*)?\/?$/;
const userSite = /(?:^|\/)\.local\/lib\/python[0-9.]*(?:\/site-packages)?\/?$/;
export const isRuntimePath = (path: string): boolean => runtimeRoot.test(path) || userSite.test(path);

/** `$(which node)`, `` `command -v python3` ``, `$(whereis -b node | cut -d' ' -f2)`: the interpreter's own file, found at run time. */
export const runtimeLookup = /(?:\$\(|`)[^)`]*?\b(?:which|command\s+-[vV]|type\s+-[pPa]+|whereis(?:\s+-\w+)*)\s+['"]?(?:node|nodejs|python[0-9.]*)\b/;

const runtimeName = /^(?:node|nodejs|python[0-9.]*)$/;

/** rm, chmod, mv, truncate, rsync --delete or find -delete aimed at the interpreter's file or a runtime folder; cp, ln and install over it. */
export const removesRuntimeFiles = ({ program, args, redirects }: SimpleCommand): boolean => {
  // `: > $(command -v node)`, `cat /dev/null > "$(which python3)"`: any program's output written over it.
  if (redirects.some((r) => /^(?:>|>>|>\||&>|&>>)$/.test(r.op.replace(/^\d+/, '')) && runtimeLookup.test(r.target))) return true;
  if (!removers.has(program)) return false;
  if (program === 'find') {
    // `find / -name node -type f -delete`: every file of the interpreter's name.
    const deletes = args.includes('-delete') || args.some((a, i) => a === '-exec' && /^(?:rm|shred|unlink|truncate|chmod)$/.test(args[i + 1] ?? ''));
    return deletes && (args.some((a, i) => /^-i?name$/.test(a) && runtimeName.test((args[i + 1] ?? '').replace(/['"]/g, ''))) || args.filter((a) => !a.startsWith('-')).some(isRuntimePath));
  }
  if (program === 'rsync') return args.some((a) => /^--delete/.test(a)) && isRuntimePath(args.filter((a) => !a.startsWith('-')).slice(-1)[0] ?? '');
  const operands = args.filter((a) => !/^-/.test(a) || runtimeLookup.test(a));
  if (copiers.has(program)) return operands.length >= 2 && runtimeLookup.test(operands[operands.length - 1]!);
  return operands.some((a) => runtimeLookup.test(a) || isRuntimePath(a));
};

/** The version and environment managers' verbs that take an interpreter (or an environment) away. */
export const removesRuntimeByManager = ({ program, args }: SimpleCommand): boolean => {
  const words = args.filter((a) => !a.startsWith('-'));
  switch (program) {
    // nvm, n, fnm, pyenv, nodenv, mise and rtx remove a version by number, perhaps the one the daemon or Hermes runs on.
    case 'nvm': case 'n': case 'fnm': case 'nodenv':
      return ['uninstall', 'rm', 'remove'].includes(args[0] ?? '');
    case 'pyenv':
      return ['uninstall', 'rm', 'remove', 'virtualenv-delete'].includes(args[0] ?? '');
    case 'mise': case 'rtx':
      return ['uninstall', 'rm', 'remove', 'implode', 'unuse', 'prune'].includes(words[0] ?? '');
    case 'asdf':
      return words[0] === 'uninstall' || words[0] === 'plugin-remove' || (words[0] === 'plugin' && (words[1] === 'remove' || words[1] === 'rm'));
    case 'volta':
      return words[0] === 'uninstall';
    case 'uv':
      return args[0] === 'python' && ['uninstall', 'remove'].includes(args[1] ?? '') || (args[0] === 'tool' && ['uninstall', 'remove'].includes(args[1] ?? '') && args.some((a) => /hermes|tollgate/i.test(a)));
    case 'pipx':
      return words[0] === 'uninstall-all' || words[0] === 'reinstall-all';
    case 'conda': case 'mamba': case 'micromamba':
      // An environment removed whole may be the one Hermes was installed in.
      return words[0] === 'env' && (words[1] === 'remove' || words[1] === 'delete') || (words[0] === 'remove' && args.includes('--all'));
    case 'dpkg':
      return args.some((a) => /^(?:-r|-P|--remove|--purge|-[a-zA-Z]*[rP])$/.test(a)) && words.some((w) => runtimePackage.test(w));
    case 'rpm':
      return args.some((a) => /^(?:-e|--erase|-[a-zA-Z]*e[a-zA-Z]*)$/.test(a)) && words.some((w) => runtimePackage.test(w));
    case 'aptitude': case 'apt-get': case 'apt': case 'port':
      return ['remove', 'purge', 'uninstall', 'autoremove'].includes(words[0] ?? '') && words.slice(1).some((w) => runtimePackage.test(w));
    case 'update-alternatives':
      return args.some((a) => a === '--remove' || a === '--remove-all') && words.some((w) => runtimeName.test(w.split('/').pop() ?? ''));
    case 'nix':
      return words[0] === 'profile' && (words[1] === 'remove' || words[1] === 'uninstall') && words.slice(2).some((w) => runtimePackage.test(w.replace(/^.*#/, '')));
    default:
      return false;
  }
};
const runtimePackage = /^(?:tollgate|hermes-agent|hermes|nodejs[0-9]*|node[0-9]*|python[0-9.]*(?:-minimal)?|libpython3[.\d]*|python3-venv|npm)(?:[=@:_-].*)?$/i;

/**
 * Code that removes or disables the interpreter it runs on or another one: `os.remove(sys.executable)`,
 * `fs.unlinkSync(process.execPath)`, `os.chmod(shutil.which('node'), 0)`; a runtime folder named by a literal is
 * judged by the caller (isRuntimePath).
 */
export const codeRemovesRuntime = (code: string): boolean =>
  /\b(?:remove|unlink|unlinkSync|rmSync|rmdirSync|chmod|chmodSync|rename|renameSync|truncate|truncateSync|writeFileSync|rmtree|replace|move)\s*\(\s*(?:os\.path\.realpath\(\s*|fs\.realpathSync\(\s*|Path\(\s*)?(?:sys\.executable|sys\._base_executable|process\.execPath|process\.argv\[0\]|shutil\.which\(\s*['"](?:node|nodejs|python[0-9.]*)['"]\s*\))/.test(code);

export const runtimeRemovalExamples = {
  stops: ['mise uninstall node@20', 'mise implode --yes', 'asdf plugin remove nodejs', 'asdf plugin-remove python', 'nodenv uninstall -f 20.19.0', 'pyenv virtualenv-delete -f hermes',
    'conda env remove -n hermes', 'nix profile remove nixpkgs#nodejs', 'aptitude remove nodejs', 'dpkg -r nodejs', 'sudo dpkg --purge --force-depends python3', 'rpm -e nodejs',
    'port uninstall nodejs20', 'pipx uninstall-all', 'update-alternatives --remove-all python3', ': > $(command -v node)', "rm -f $(whereis -b node | cut -d' ' -f2)",
    'rm -rf ~/.nvm/versions/node', 'rm -rf ~/.local/share/mise/installs/node', 'rm -rf ~/.local/share/uv/python', 'rm -rf ~/.local/pipx/venvs/hermes-agent', 'rm -rf ~/miniconda3',
    'rm -rf ~/.local/lib/python3.11/site-packages', 'find / -name node -type f -delete', 'rsync -a --delete /tmp/empty/ ~/.nvm/',
    "python3 -c 'import os,sys; os.remove(sys.executable)'", 'node -e "require(\'fs\').unlinkSync(process.execPath)"'],
  allows: ['mise install node@20', 'mise ls', 'asdf plugin list', 'conda env list', 'dpkg -l nodejs', 'rpm -q nodejs', 'rm -rf ~/.nvm/.cache', 'rm -rf ~/.cache/pip',
    'find . -name node_modules -prune -o -name "*.log" -delete', 'rsync -a --delete dist/ /srv/www/', 'update-alternatives --display python3', 'pipx list', 'nodenv versions',
    "python3 -c 'import sys; print(sys.executable)'", 'cp $(which node) /tmp/node-copy'],
};
