/**
 * The hardline floor: commands that never run, whatever the approval mode, yolo or allowlist says. Kept small on
 * purpose: only what has no recovery path (Hermes' UNRECOVERABLE_BLOCKLIST: root, system and home wipes, disk
 * formats and raw writes, fork bombs, killing every process, stopping the machine). Recoverable damage such as
 * `git reset --hard`, `chmod -R 777` or `curl | sh` asks instead (approvals/dangerousCommands.ts).
 */
import { programs, type HardlineRule } from './commandRule.ts';
import {
  ddWritesBlockDevice,
  deletesFilesystemRoot,
  deletesHomeDirectory,
  deletesSystemDirectory,
  formatsBlockDevice,
  isForkBomb,
  killsAllProcesses,
  shutsDownMachine,
  switchesToHaltRunlevel,
  systemctlPowersOff,
  wipesBlockDevice,
  writesBlockDevice,
} from './destructiveCommands.ts';

export const hardlineCommands: readonly HardlineRule[] = [
  {
    id: 'delete-filesystem-root',
    reason: 'Deletes everything under the filesystem root.',
    programs: programs('rm'),
    matches: deletesFilesystemRoot,
    blocks: [
      'rm -rf /', 'rm -rf --no-preserve-root /', 'sudo rm -r -f /', 'rm --recursive --force /', 'rm -rf -- /',
      'rm -rf /*', 'rm -rf //', 'rm -rf /tmp/../', "rm -rf '/'", 'rm / -rf', 'cd / && rm -rf *', 'rm -rf $(echo /)', 'rm -rf /{,}',
    ],
    allows: ['rm -rf ./build', 'rm -rf /tmp/cache', 'rm -rf build/', "echo 'rm -rf /'", 'ls /', 'cd /tmp/build && rm -rf *', '(cd /; ls); rm -rf *'],
  },
  {
    id: 'delete-system-directory',
    reason: 'Deletes a top-level system directory the machine needs to boot or run.',
    programs: programs('rm'),
    matches: deletesSystemDirectory,
    blocks: ['rm -rf /etc', 'sudo rm -rf /usr', 'rm -rf /var/', 'rm -r /boot', 'rm -rf /bin/*', 'rm -f /etc/*', 'rm -rf /lib64', 'cd /etc; rm -rf *', 'rm -rf /{etc,tmp}'],
    allows: ['rm -rf /etc/nginx/sites-enabled/default', 'rm -rf /var/log/app', 'rm -rf /usr/local/lib/node_modules/foo', 'ls /etc'],
  },
  {
    id: 'delete-home-directory',
    reason: 'Deletes a whole home directory.',
    programs: programs('rm'),
    matches: deletesHomeDirectory,
    blocks: ['rm -rf ~', 'rm -rf ~/', 'rm -rf "$HOME"', 'rm -rf ${HOME}/*', 'rm -rf /home', 'rm -rf /home/alice', 'rm -rf /root', 'cd && rm -rf *', 'cd ~ && rm -rf .'],
    allows: ['rm -rf ~/project/build', 'rm -rf "$HOME/.cache/pip"', 'rm -rf /home/alice/tmp'],
  },
  {
    id: 'format-block-device',
    reason: 'Formats a disk, destroying every file system on it.',
    matches: formatsBlockDevice,
    blocks: ['mkfs.ext4 /dev/sda1', 'mkfs -t xfs /dev/nvme0n1p2', 'sudo mke2fs -F /dev/vdb', 'mkswap /dev/sdb2', 'mkfs.ext4 "$DEVICE"', 'diskutil eraseDisk APFS Empty disk2'],
    allows: ['mkfs.ext4 -F disk.img', 'mkswap /swapfile', 'diskutil list', 'echo mkfs.ext4 /dev/sda1'],
  },
  {
    id: 'dd-to-block-device',
    reason: 'Writes raw bytes over a disk with dd.',
    programs: programs('dd'),
    matches: ddWritesBlockDevice,
    blocks: ['dd if=/dev/zero of=/dev/sda bs=1M', 'sudo dd if=image.iso of=/dev/disk2', 'dd of=/dev/nvme0n1 if=/dev/urandom', 'dd if=x of=/dev/mapper/vg-root'],
    allows: ['dd if=/dev/zero of=./disk.img bs=1M count=10', 'dd if=/dev/sda of=backup.img', 'dd if=/dev/urandom of=/dev/null count=1'],
  },
  {
    id: 'write-to-block-device',
    reason: 'Overwrites a disk through redirection, tee or cp.',
    matches: writesBlockDevice,
    blocks: ['cat image.iso > /dev/sdb', 'echo x >> /dev/nvme0n1', 'head -c 1M /dev/zero | tee /dev/sda', 'cp disk.img /dev/mmcblk0', 'ls >& /dev/sda'],
    allows: ['cat /dev/sda > backup.img', 'echo x > /dev/null', 'cp /dev/sda disk.img', 'echo x | tee /tmp/log'],
  },
  {
    id: 'wipe-block-device',
    reason: 'Erases the partition table or every sector of a disk.',
    matches: wipesBlockDevice,
    blocks: ['wipefs -a /dev/sda', 'sgdisk --zap-all /dev/sdb', 'sgdisk -Z /dev/nvme0n1', 'blkdiscard /dev/nvme0n1', 'shred -n 1 /dev/sdc', 'parted -s /dev/sda mklabel gpt'],
    allows: ['wipefs /dev/sda', 'wipefs -a -n /dev/sda', 'sgdisk -p /dev/sda', 'shred -u secret.txt', 'blkdiscard --help'],
  },
  {
    id: 'fork-bomb',
    reason: 'Starts processes that multiply until the machine stops responding.',
    matches: isForkBomb,
    blocks: [':(){ :|:& };:', 'bomb(){ bomb|bomb& };bomb', 'function f { f | f & }; f', 'x() { x & x; }; x'],
    allows: ['f(){ echo hi; }; f', 'retry() { make || sleep 1; }; retry', ': | :'],
  },
  {
    id: 'kill-all-processes',
    reason: 'Sends a signal to every process the user may signal, which takes the session or the machine down.',
    programs: programs('kill', 'killall5'),
    matches: killsAllProcesses,
    blocks: ['kill -1', 'kill -9 -1', 'sudo kill -KILL -1', 'kill -s KILL -1', 'kill -- -1', 'killall5 -9'],
    allows: ['kill 1234', 'kill -9 1234', 'kill -1 1234', 'kill -l', 'echo kill -9 -1'],
  },
  {
    id: 'shutdown-or-reboot',
    reason: 'Shuts down, halts or reboots the machine.',
    programs: programs('shutdown', 'reboot', 'halt', 'poweroff'),
    matches: shutsDownMachine,
    blocks: ['shutdown -h now', 'sudo reboot', 'halt', 'poweroff', 'shutdown -r +5'],
    allows: ['shutdown -c', 'echo reboot', 'grep shutdown /var/log/syslog', 'systemctl status'],
  },
  {
    id: 'init-halt-or-reboot',
    reason: 'Switches to the runlevel that halts (0) or reboots (6) the machine.',
    programs: programs('init', 'telinit'),
    matches: switchesToHaltRunlevel,
    blocks: ['init 0', 'sudo init 6', 'telinit 0', 'telinit 6'],
    allows: ['init 3', 'telinit q', 'echo init 0'],
  },
  {
    id: 'systemctl-power-off',
    reason: 'Powers off, halts or reboots the machine through systemd.',
    programs: programs('systemctl', 'loginctl'),
    matches: systemctlPowersOff,
    blocks: ['systemctl poweroff', 'sudo systemctl reboot', 'systemctl halt', 'systemctl kexec', 'systemctl --force reboot', 'systemctl isolate poweroff.target', 'loginctl reboot'],
    allows: ['systemctl status nginx', 'systemctl restart nginx', 'systemctl list-units', 'loginctl list-sessions'],
  },
];
