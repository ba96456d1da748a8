import { expect } from 'chai';
import type { ShellAnalysis, SimpleCommand } from '../../../domain/shell/shellAnalysis.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

/** The facts a test usually compares: program, arguments and how the command was reached. */
const brief = ({ program, args, via }: SimpleCommand) => ({ program, args: [...args], via: [...via] });

describe('bash analyzer', () => {
  const analyze = useBashAnalyzer();
  const commands = (line: string) => analyze(line).commands.map(brief);
  const programs = (line: string) => analyze(line).commands.map((command) => command.program);
  const find = (analysis: ShellAnalysis, program: string) => {
    const found = analysis.commands.find((command) => command.program === program);
    if (!found) throw new Error(`no ${program} in ${JSON.stringify(analysis.commands.map((c) => c.program))}`);
    return found;
  };

  describe('simple commands and compounds', () => {
    it('reads a simple command: program, path, arguments, text', () => {
      const analysis = analyze('ls -la src');
      expect(analysis).to.deep.include({ source: 'ls -la src', parsed: true, problems: [] });
      expect(analysis.commands).to.deep.equal([
        { program: 'ls', programPath: 'ls', args: ['-la', 'src'], redirects: [], pipedFrom: [], via: [], text: 'ls -la src' },
      ]);
    });

    it('returns nothing to run for an empty line or a comment', () => {
      expect(analyze('')).to.deep.include({ parsed: true, commands: [] });
      expect(analyze('# rm -rf /')).to.deep.include({ parsed: true, commands: [] });
    });

    it('collects every command of a list joined by ; && || and &', () =>
      expect(programs('a; b && c || d & e')).to.deep.equal(['a', 'b', 'c', 'd', 'e']));

    it('marks backgrounded commands', () => {
      const analysis = analyze('sleep 1 & wait');
      expect(find(analysis, 'sleep').background).to.equal(true);
      expect(find(analysis, 'wait').background).to.equal(undefined);
    });

    it('fills pipedFrom with the earlier stages of a pipeline', () => {
      const analysis = analyze('curl -s x | tee log |& sudo bash');
      expect(find(analysis, 'tee').pipedFrom).to.deep.equal(['curl']);
      expect(find(analysis, 'bash').pipedFrom).to.deep.equal(['curl', 'tee']);
    });

    it('walks subshells and brace groups', () => expect(programs('(cd x && rm a); { rm b; }')).to.deep.equal(['cd', 'rm', 'rm']));

    it('walks if, elif and else: conditions and bodies', () =>
      expect(programs('if a; then b; elif c; then d; else e; fi')).to.deep.equal(['a', 'b', 'c', 'd', 'e']));

    it('walks while and until loops: conditions and bodies', () =>
      expect(programs('while a; do b; done; until c; do d; done')).to.deep.equal(['a', 'b', 'c', 'd']));

    it('walks for and select loops, including substitutions in their word lists', () =>
      expect(programs('for f in $(ls); do rm "$f"; done; select x in y; do z; done; for ((i=0;i<2;i++)); do w; done')).to.deep.equal([
        'ls', 'rm', 'z', 'w',
      ]));

    it('walks case arms', () => expect(programs('case $x in a) b;; *) c;; esac')).to.deep.equal(['b', 'c']));

    it('counts the body of a defined function, marked with the function', () => {
      const analysis = analyze('f(){ rm -rf /; }; f');
      expect(analysis.commands.map(brief)).to.deep.equal([
        { program: 'rm', args: ['-rf', '/'], via: ['function f'] },
        { program: 'f', args: [], via: [] },
      ]);
    });

    it('reads a negated command and test expressions', () => expect(programs('! grep -q x f && [[ -f $(pwd)/y ]]')).to.deep.equal(['grep', 'pwd']));

    it('reports a bare redirection as the null command that truncates the file', () =>
      expect(analyze('> /etc/motd').commands[0]).to.deep.include({ program: ':', redirects: [{ op: '>', target: '/etc/motd' }] }));
  });

  describe('substitutions', () => {
    it('finds $(...) in an argument', () =>
      expect(commands('echo $(rm -rf /)')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['$(...)'] }));

    it('finds backticks in an argument', () =>
      expect(commands('echo `rm -rf /`')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['`...`'] }));

    it('finds $(...) inside double quotes', () => expect(programs('echo "today: $(date)"')).to.include('date'));

    it('finds $(...) in an assignment, a declaration and a redirect target', () =>
      expect(programs('A=$(a) B=`b`; export C=$(c); echo x > "$(d)"')).to.have.members(['a', 'b', 'c', 'd', 'echo']));

    it('finds $(...) inside ${...} defaults and arithmetic', () => expect(programs('echo ${X:-$(a)} $((1 + $(b)))')).to.have.members(['echo', 'a', 'b']));

    it('finds process substitution <(...) and >(...)', () => {
      const analysis = analyze('diff <(sort a) >(gzip > b.gz)');
      expect(find(analysis, 'sort').via).to.deep.equal(['<(...)']);
      expect(find(analysis, 'gzip').via).to.deep.equal(['>(...)']);
    });

    it('nests substitutions to any depth below the cap', () =>
      expect(commands('echo $(echo $(echo $(rm -rf /)))')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['$(...)', '$(...)', '$(...)'] }));

    it('gives up past 16 nested levels: not parsed, says so, keeps what it found', () => {
      let line = 'rm -rf /';
      for (let i = 0; i < 20; i++) line = `echo $(${line})`;
      const analysis = analyze(line);
      expect(analysis.parsed).to.equal(false);
      expect(analysis.problems.join('\n')).to.match(/nesting deeper than 16 levels .* at byte \d+/);
      expect(analysis.commands.length).to.be.greaterThan(10);
    });
  });

  describe('code run by other commands', () => {
    for (const shell of ['bash', 'sh', 'zsh', 'dash', 'ksh']) {
      it(`parses the string of ${shell} -c`, () =>
        expect(commands(`${shell} -c 'rm -rf /'`)).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: [`${shell} -c`] }));
    }

    it('reads combined shell flags such as -lc and -ec, and options before -c', () => {
      expect(commands("bash -lc 'rm x'")).to.deep.include({ program: 'rm', args: ['x'], via: ['bash -c'] });
      expect(commands('sh -ec "rm x"')).to.deep.include({ program: 'rm', args: ['x'], via: ['sh -c'] });
      expect(commands("bash -o pipefail -c 'rm x'")).to.deep.include({ program: 'rm', args: ['x'], via: ['bash -c'] });
    });

    it('leaves a script file alone: bash script.sh runs no visible code', () => expect(programs('bash -x deploy.sh')).to.deep.equal(['bash']));

    it('parses the joined arguments of eval', () =>
      expect(commands("eval rm '-rf' /")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['eval'] }));

    it('reads the command xargs runs, past its options', () =>
      expect(commands('ls | xargs -0 -n 1 -I{} rm -f {}')).to.deep.include({ program: 'rm', args: ['-f', '{}'], via: ['xargs'] }));

    it('reads find -exec, -execdir and -ok commands up to ; or {} +', () => {
      const analysis = analyze("find . -name '*.o' -exec rm {} \\; -execdir shred {} + -ok /bin/mv {} /tmp ';'");
      expect(analysis.commands.map(brief).slice(1)).to.deep.equal([
        { program: 'rm', args: ['{}'], via: ['find -exec'] },
        { program: 'shred', args: ['{}'], via: ['find -execdir'] },
        { program: 'mv', args: ['{}', '/tmp'], via: ['find -ok'] },
      ]);
    });

    it('reads the action of trap and the remote command of ssh as shell strings', () => {
      expect(commands("trap 'rm -rf /tmp/x' EXIT")).to.deep.include({ program: 'rm', args: ['-rf', '/tmp/x'], via: ['trap'] });
      expect(programs("trap - EXIT; trap -p")).to.deep.equal(['trap', 'trap']);
      expect(commands("ssh -p 2222 -i key admin@db 'sudo rm -rf /var/lib/x'")).to.deep.include({ program: 'rm', args: ['-rf', '/var/lib/x'], via: ['ssh admin@db', 'sudo'] });
    });

    it('reads su -c and watch as shell strings', () => {
      expect(commands("su -c 'rm -rf /' root")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['su -c'] });
      expect(commands("watch -n 5 'rm -rf /tmp/x'")).to.deep.include({ program: 'rm', args: ['-rf', '/tmp/x'], via: ['watch'] });
    });

    it('nests carriers inside each other', () =>
      expect(commands(`sudo bash -c "eval 'sh -c \\"rm -rf /\\"'"`)).to.deep.include({
        program: 'rm', args: ['-rf', '/'], via: ['sudo', 'bash -c', 'eval', 'sh -c'],
      }));

    it('analyses a heredoc fed to a shell as commands', () =>
      expect(commands("bash <<'EOF'\nrm -rf /\nEOF")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['bash <<'] }));

    it('analyses a here-string fed to a shell as commands', () =>
      expect(commands("sh <<<'rm -rf /'")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['sh <<<'] }));

    it('analyses a heredoc piped through cat into a shell', () =>
      expect(commands('cat <<EOF | sudo bash -s\nrm -rf /\nEOF')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['sudo', 'cat | bash'] }));

    it('analyses echo and printf output piped into a shell', () => {
      expect(commands("echo 'rm -rf /' | sh")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['echo | sh'] });
      expect(commands("printf '%s\\n' 'rm -rf /' | bash")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['printf | bash'] });
    });

    it('analyses a script file written earlier in the line when a shell runs it', () => {
      expect(commands("cat > /tmp/x.sh <<'EOF'\nrm -rf /\nEOF\nbash /tmp/x.sh")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['bash /tmp/x.sh'] });
      expect(commands('echo "rm -rf /" > x.sh && chmod +x x.sh && ./x.sh')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['./x.sh'] });
      expect(commands('printf "rm x\\n" | tee -a s.sh; source s.sh')).to.deep.include({ program: 'rm', args: ['x'], via: ['source s.sh'] });
    });

    it('does not read a file with another interpreter\'s shebang as shell code', () =>
      expect(programs("cat > run.py <<'EOF'\n#!/usr/bin/env python3\nrm = 1\nEOF\n./run.py")).to.deep.equal(['cat', 'run.py']));

    it('analyses what a process substitution prints when a shell runs it as a file', () =>
      expect(commands("bash <(echo 'rm -rf /')")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ["bash <(echo 'rm -rf /')"] }));

    it('reads /dev/stdin as the shell\'s standard input', () =>
      expect(commands("bash /dev/stdin <<< 'rm x'")).to.deep.include({ program: 'rm', args: ['x'], via: ['bash <<<'] }));

    it('keeps what a database client reads on stdin', () => {
      expect(find(analyze("echo 'DROP TABLE t;' | psql"), 'psql').stdin).to.equal('DROP TABLE t;\n');
      expect(find(analyze('psql <<SQL\nDROP TABLE t;\nSQL'), 'psql').stdin).to.equal('DROP TABLE t;\n');
    });
  });

  describe('heredocs and quotes are data', () => {
    it('does not run a heredoc body given to cat', () => {
      const analysis = analyze("cat > notes.md <<'EOF'\nrm -rf /\nEOF");
      expect(analysis.commands.map(brief)).to.deep.equal([{ program: 'cat', args: [], via: [] }]);
      expect(analysis.commands[0]!.redirects).to.have.deep.members([{ op: '<<', target: 'EOF' }, { op: '>', target: 'notes.md' }]);
    });

    it('runs the substitutions of an unquoted heredoc body, which the shell expands', () =>
      expect(programs('cat <<EOF\n$(rm -rf /)\nEOF')).to.include('rm'));

    it('does not run quoted arguments', () => expect(programs("echo 'rm -rf /' \"mkfs /dev/sda\"")).to.deep.equal(['echo']));

    it('strips the leading tabs of a <<- heredoc', () =>
      expect(commands('bash <<-EOF\n\trm x\n\tEOF')).to.deep.include({ program: 'rm', args: ['x'], via: ['bash <<-'] }));
  });

  describe('wrappers', () => {
    const wrapped: readonly (readonly [string, readonly string[]])[] = [
      ['sudo -u root -E rm -rf /', ['sudo -u root -E']],
      ['doas -u root rm -rf /', ['doas -u root']],
      ['env -i -u PATH A=1 rm -rf /', ['env -i -u PATH A=1']],
      ['command -p rm -rf /', ['command -p']],
      ['builtin exec rm -rf /', ['builtin', 'exec']],
      ['nohup rm -rf /', ['nohup']],
      ['timeout -s KILL 5 rm -rf /', ['timeout -s KILL 5']],
      ['nice -n 5 rm -rf /', ['nice -n 5']],
      ['ionice -c 3 rm -rf /', ['ionice -c 3']],
      ['stdbuf -oL rm -rf /', ['stdbuf -oL']],
      ['setsid rm -rf /', ['setsid']],
      ['time rm -rf /', ['time']],
      ['chroot /mnt rm -rf /', ['chroot /mnt']],
      ['A=1 B=2 rm -rf /', ['A=1 B=2']],
      ['sudo nice -n 5 nohup rm -rf /', ['sudo', 'nice -n 5', 'nohup']],
    ];
    for (const [line, via] of wrapped) {
      it(`unwraps ${line.split(' rm ')[0]}`, () => expect(commands(line)).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via }]));
    }

    it('unwraps line-editing, I/O and session wrappers (red team 12: rlwrap tollgate approve)', () => {
      for (const line of ['rlwrap rm -rf /', 'rlwrap -a -H /tmp/h rm -rf /', 'eatmydata rm -rf /', 'nocache rm -rf /', 'chronic rm -rf /',
        'sshpass -p pw rm -rf /', 'winpty rm -rf /', 'daemonize -c /tmp rm -rf /'])
        expect(commands(line).map((c) => [c.program, ...c.args]), line).to.deep.include(['rm', '-rf', '/']);
    });

    it('reads the command tmux, screen and dtach start in a detached session (red team 13)', () => {
      expect(commands('tmux new -d "rm -rf /"').map((c) => [c.program, ...c.args])).to.deep.include(['rm', '-rf', '/']);
      expect(commands("tmux split-window -h 'rm -rf /'").map((c) => [c.program, ...c.args])).to.deep.include(['rm', '-rf', '/']);
      expect(commands('screen -S x -dm bash -c "rm -rf /"').map((c) => [c.program, ...c.args])).to.deep.include(['rm', '-rf', '/']);
      expect(commands('dtach -n /tmp/s rm -rf /').map((c) => [c.program, ...c.args])).to.deep.include(['rm', '-rf', '/']);
      expect(programs('tmux ls')).to.deep.equal(['tmux']);
      expect(programs('screen -r')).to.deep.equal(['screen']);
      expect(programs('tmux new -d -s x \\; send-keys -t y ls Enter')).to.deep.equal(['tmux']);
    });

    it('does not unwrap a wrapper that only asks about a command (command -v, sudo -l)', () => {
      expect(commands('command -v rm')).to.deep.equal([{ program: 'command', args: ['-v', 'rm'], via: [] }]);
      expect(programs('sudo -l rm')).to.deep.equal(['sudo']);
    });

    it('unwraps tracing and namespace wrappers, and reads script -c as a shell string', () => {
      expect(commands('strace -f -o log rm x')).to.deep.equal([{ program: 'rm', args: ['x'], via: ['strace -f -o log'] }]);
      expect(commands('unshare -r rm x')).to.deep.equal([{ program: 'rm', args: ['x'], via: ['unshare -r'] }]);
      expect(commands("script -qc 'rm x' /dev/null")).to.deep.include({ program: 'rm', args: ['x'], via: ['script -c'] });
    });

    it('unwraps sandboxes, debuggers and fakers that start a command (bwrap, gdb --args, valgrind, fakeroot, firejail)', () => {
      expect(commands('bwrap --ro-bind /usr /usr --dev /dev --unshare-all --overlay a b c rm -rf /')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['bwrap'] });
      expect(commands('valgrind -q --tool=memcheck rm -rf /')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: ['valgrind -q --tool=memcheck'] }]);
      expect(commands('fakeroot -- rm -rf /')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: ['fakeroot --'] }]);
      expect(commands('firejail --noprofile --net=none rm -rf /')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: ['firejail --noprofile --net=none'] }]);
      expect(commands('gdb -batch -ex run --args rm -rf /')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['gdb --args'] });
      expect(commands('faketime -f +1d rm -rf /').map((c) => c.program)).to.include('rm');
    });

    it('does not invent a command for a debugger or sandbox that only loads or asks', () => {
      expect(programs('gdb ./a.out core')).to.deep.equal(['gdb']);
      expect(programs('valgrind --version')).to.deep.equal(['valgrind']);
      expect(programs('bwrap --help')).to.deep.equal(['bwrap']);
    });

    it('reads sg -c and GNU parallel as shell strings (the command with each ::: argument, or each argument alone)', () => {
      expect(commands("sg staff -c 'rm -rf /'")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['sg staff'] });
      expect(commands("parallel ::: 'rm -rf /' ls")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['parallel'] });
      expect(commands('parallel -j2 rm -rf ::: / /tmp')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['parallel'] });
      expect(programs('parallel gzip ::: a.log b.log')).to.deep.equal(['parallel', 'gzip', 'gzip']);
    });

    it('reads the command development runners start (poetry run, conda run -n, op run --, perf stat, direnv exec DIR, aws-vault exec P --)', () => {
      for (const [line, via] of [
        ['poetry run rm -rf /', 'poetry run'], ['bundle exec rm -rf /', 'bundle exec'], ['conda run -n base rm -rf /', 'conda run -n base'],
        ['op run --env-file .env -- rm -rf /', 'op run --env-file .env --'], ['perf stat -e cycles rm -rf /', 'perf stat -e cycles'], ['direnv exec . rm -rf /', 'direnv exec .'],
        ['aws-vault exec prod -- rm -rf /', 'aws-vault exec prod --'], ['mise exec node@20 -- rm -rf /', 'mise exec node@20 --'],
      ] as const) expect(commands(line), line).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: [via] });
      expect(commands('cross-env NODE_ENV=test rm -rf /')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: ['cross-env NODE_ENV=test'] }]);
      expect(commands('lldb -o run -- rm -rf /')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['lldb --'] });
      expect(commands('nix develop -c rm -rf /')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['nix develop -c'] });
    });

    it('reads the strings of nix-shell --run, hyperfine, watchexec and chokidar -c as command lines', () => {
      expect(commands("nix-shell -p jq --run 'rm -rf /'")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['nix-shell --run'] });
      expect(commands("hyperfine -w 3 'sleep 1' --prepare 'rm -rf /'")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['hyperfine'] });
      expect(commands('watchexec -e ts -- rm -rf /')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['watchexec'] });
      expect(commands("chokidar 'src/**' -c 'rm -rf /'")).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['chokidar -c'] });
    });

    it('leaves runners alone when they run no command (poetry install, conda create, perf report)', () => {
      expect(programs('poetry install')).to.deep.equal(['poetry']);
      expect(programs('conda create -n x python=3.12')).to.deep.equal(['conda']);
      expect(programs('perf report -i perf.data')).to.deep.equal(['perf']);
      expect(programs('perf record -p 1234')).to.deep.equal(['perf']);
      expect(programs('dotenv -f .env set KEY 1')).to.deep.equal(['dotenv']);
      expect(commands('dotenv -f .env run rm -rf /')).to.deep.include({ program: 'rm', args: ['-rf', '/'], via: ['dotenv -f .env run'] });
      expect(commands('poetry run pytest -- -k x')).to.deep.include({ program: 'pytest', args: ['--', '-k', 'x'], via: ['poetry run'] });
    });

    it('reads env -S as a command line', () => expect(commands("env -S 'rm -rf' /")).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: ['env -S'] }]));
  });

  describe('program names', () => {
    for (const [line, path] of [['\\rm -rf /', 'rm'], ['/bin/rm -rf /', '/bin/rm'], ['./rm -rf /', './rm'], ["'r''m' -rf /", 'rm'], ['"r"m -rf /', 'rm'], ['r\\m -rf /', 'rm'], ["$'\\x72m' -rf /", 'rm']] as const) {
      it(`reads ${line} as rm`, () => expect(analyze(line).commands[0]).to.deep.include({ program: 'rm', programPath: path, args: ['-rf', '/'] }));
    }

    it('splits words on $IFS the way the shell would', () => expect(commands('rm${IFS}-rf${IFS}/')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: [] }]));

    it('keeps a program named at run time as written', () => expect(programs('$EDITOR notes.txt')).to.deep.equal(['$EDITOR']));

    it('resolves a program named by a variable assigned earlier in the line, split as the shell would', () => {
      expect(commands('X=rm; $X -rf /')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: [] }]);
      expect(commands('X="rm -rf"; $X /')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: [] }]);
      expect(commands('export D=/; rm -rf "$D"')).to.deep.equal([{ program: 'rm', args: ['-rf', '/'], via: [] }]);
    });

    it('runs a variable program as each value it may hold (branches, loops)', () => {
      expect(programs('if a; then X=rm; else X=ls; fi; $X -rf /')).to.deep.equal(['a', 'rm', 'ls']);
      expect(programs('for c in ls rm; do $c -rf /; done')).to.deep.equal(['ls', 'rm']);
    });

    it('does not take a prefix assignment for a shell variable', () =>
      expect(programs('X=rm; X=ls cmd; $X -rf /')).to.deep.equal(['cmd', 'rm']));

    it('resolves $(echo NAME) in command position', () => expect(programs('$(echo rm) -rf /')).to.deep.equal(['echo', 'rm']));
  });

  describe('words', () => {
    it('takes single quotes literally', () => expect(commands("echo 'a \\n $HOME'")[0]!.args).to.deep.equal(['a \\n $HOME']));

    it('applies backslash escapes inside double quotes', () => expect(commands('echo "a \\"b\\" \\$c \\\\ \\n"')[0]!.args).to.deep.equal(['a "b" $c \\ \\n']));

    it('reads a locale string $"..." as the double-quoted word inside', () => {
      expect(commands('$"hermes" config')[0]!.program).to.equal('hermes');
      expect(commands('echo $"hi there" x')[0]!.args).to.deep.equal(['hi there', 'x']);
    });
    it('decodes ANSI-C strings', () => expect(commands("echo $'a\\tb\\x41\\101\\u00e9\\n'")[0]!.args).to.deep.equal(['a\tbAAé\n']));

    it('keeps expansions and globs as written, without the quotes around them', () =>
      expect(commands('rm -rf "$HOME"/* ~/x *.log ${DIR}')[0]!.args).to.deep.equal(['-rf', '$HOME/*', '~/x', '*.log', '${DIR}']));

    it('expands unquoted braces into words, and leaves quoted ones and sequences alone', () => {
      expect(commands('rm -rf /{etc,usr} x{1..3}')[0]!.args).to.deep.equal(['-rf', '/etc', '/usr', 'x{1..3}']);
      expect(commands("echo '{a,b}' {}")[0]!.args).to.deep.equal(['{a,b}', '{}']);
    });

    it('replaces an unquoted substitution by what echo prints in it, and a quoted one by that output as one word', () =>
      expect(commands('rm -rf $(echo / /tmp) "$(echo x y)"')).to.deep.include({ program: 'rm', args: ['-rf', '/', '/tmp', 'x y'], via: [] }));

    it('reads what a decoder prints from text the line gives it (red team 8)', () => {
      expect(commands('rm -f "$(echo L3Nydi9oZXJtZXMtYm90 | base64 -d)"').find((c) => c.program === 'rm')!.args).to.deep.equal(['-f', '/srv/hermes-bot']);
      expect(commands('rm -f "$(rev <<< tob-semreh/vrs/)"').find((c) => c.program === 'rm')!.args).to.deep.equal(['-f', '/srv/hermes-bot']);
      expect(analyze('echo x > "$(tr a-z n-za-m <<< /fei/urezrf-obg)"').commands.find((c) => c.program === 'echo')!.redirects).to.deep.equal([{ op: '>', target: '/srv/hermes-bot' }]);
      expect(commands('rm -f "$(echo 2f74 | xxd -r -p)"').find((c) => c.program === 'rm')!.args).to.deep.equal(['-f', '/t']);
    });

    it('leaves a substitution of two commands, or of a decoder given unknown text, as written', () => {
      expect(commands('rm -f "$(echo a; echo b | rev)"').find((c) => c.program === 'rm')!.args).to.deep.equal(['-f', '$(echo a; echo b | rev)']);
      expect(commands('rm -f "$(echo $X | base64 -d)"').find((c) => c.program === 'rm')!.args).to.deep.equal(['-f', '$(echo $X | base64 -d)']);
    });

    it('joins a word the grammar splits', () => expect(commands('echo a > f b')[0]!.args).to.deep.equal(['a', 'b']));
  });

  describe('working directory', () => {
    it('records the directory a known cd moved to', () => {
      const analysis = analyze('cd /srv/app && cd ../web && rm -rf * && cd "$X" && ls');
      expect(analysis.commands.map((command) => command.cwd)).to.deep.equal([undefined, '/srv/app', '/srv/web', '/srv/web', undefined]);
    });

    it('keeps a cd inside a subshell or a substitution to itself', () =>
      expect(find(analyze('(cd /; ls); echo $(cd /etc); rm x'), 'rm').cwd).to.equal(undefined));

    it('follows cd with no operand or ~ to the home directory', () => expect(find(analyze('cd && rm x'), 'rm').cwd).to.equal('~'));

    it('lets a cd run by eval or source hold for what follows, as it does in the shell', () =>
      expect(find(analyze("eval 'cd /'; rm x"), 'rm').cwd).to.equal('/'));
  });

  describe('redirections', () => {
    it('records operators and unquoted targets', () =>
      expect(analyze('cmd > "out file" 2>&1 >> log &> all <in 2>/dev/null').commands[0]!.redirects).to.deep.equal([
        { op: '>', target: 'out file' },
        { op: '2>', target: '&1' },
        { op: '>>', target: 'log' },
        { op: '&>', target: 'all' },
        { op: '<', target: 'in' },
        { op: '2>', target: '/dev/null' },
      ]));

    it('keeps a redirection written after a heredoc start, which the grammar nests in the heredoc', () =>
      expect(analyze("cat <<'EOF' > /etc/hosts\n127.0.0.1 x\nEOF").commands[0]!.redirects).to.deep.equal([
        { op: '<<', target: 'EOF' },
        { op: '>', target: '/etc/hosts' },
      ]));

    it('gives a redirection after a list to its last command', () => {
      const analysis = analyze('a && b > out');
      expect(find(analysis, 'a').redirects).to.deep.equal([]);
      expect(find(analysis, 'b').redirects).to.deep.equal([{ op: '>', target: 'out' }]);
    });

    it('gives a redirection of a group to every command in it', () => {
      const analysis = analyze('{ a; b; } > /dev/sda');
      for (const command of analysis.commands) expect(command.redirects).to.deep.equal([{ op: '>', target: '/dev/sda' }]);
    });

    it('passes a wrapper\'s redirections to the command it runs', () =>
      expect(analyze('sudo cat x > /dev/sda').commands[0]).to.deep.include({ program: 'cat', redirects: [{ op: '>', target: '/dev/sda' }] }));
  });

  describe('lines that cannot be fully read', () => {
    it('reports a syntax error with its byte offset and still returns the commands it found', () => {
      const analysis = analyze('rm -rf / ; echo "oops');
      expect(analysis.parsed).to.equal(false);
      expect(analysis.problems[0]).to.match(/^(?:syntax error|missing '"'|unclosed '"') at byte \d+$/);
      expect(programs('rm -rf / ; echo "oops')).to.include('rm');
    });

    it('reports a construct left open', () => {
      const analysis = analyze('if true; then rm x');
      expect(analysis.parsed).to.equal(false);
      expect(analysis.problems).to.deep.equal(["unclosed 'if' at byte 0"]);
    });

    it('counts byte offsets in UTF-8', () => expect(analyze('echo é; )').problems).to.deep.equal(["unexpected ')' at byte 9"]));

    it('reports a syntax error inside a nested shell string, with where the carrier is', () => {
      const analysis = analyze("ls; bash -c 'rm x; )'");
      expect(analysis.parsed).to.equal(false);
      expect(analysis.problems).to.deep.equal(["unexpected ')' at byte 6 of the 'bash -c' string (command at byte 4)"]);
    });

    it('refuses a NUL byte', () => {
      const analysis = analyze('echo hi\u0000; rm -rf /');
      expect(analysis.parsed).to.equal(false);
      expect(analysis.problems[0]).to.match(/NUL byte at byte 7/);
    });

    it('never throws on odd input', () => {
      for (const line of ['\ud800', '$(', '`', "'", '"', '<<', 'a <<A <<B\nx\nA\n', '((((', '}}}', '\\', '$((', 'cat <<EOF']) {
        const analysis = analyze(line);
        expect(analysis.source).to.equal(line);
      }
    });
  });
});
