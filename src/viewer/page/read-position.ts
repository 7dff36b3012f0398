// How far the page has read the open run's file, and how it asks for what the file gained. The list says
// each file's size, stamp and a fingerprint of its first line (not the line: it holds the run's prompt; a
// read from the start gives the fingerprint too); a read says where its text starts, where the next one
// starts, a check of the bytes read (log-folder.ts checks them at the next read) and whether the file had
// settled. A file that grew is read from where the last whole line ended, the server checking the last
// bytes read (and the inode); one that did not grow (rewritten in place, touched) or whose last read was
// made while it changed is checked whole first, since two writes within one clock tick leave the stamp as
// it was. A file that shrank below what was read, or has another first line, is read from its start
// without a check.

/** What the list says of the open run's file. */
export interface FileState {
  readonly size: number;
  /** The fingerprint of its first line (empty: not known). */
  readonly headHash: string;
  readonly stamp: string;
}

/** A read of the file, as the page's source gives it. */
export interface FileRead {
  readonly text: string;
  /** Where `text` starts: the offset asked for, or 0 when the file did not hold what was read before it. */
  readonly from: number;
  readonly next: number;
  readonly check: string;
  readonly settled: boolean;
  /** For a read from the start (`from` 0): the fingerprint of the file's first line; empty when not known. */
  readonly headHash: string;
}

/** The read to make: from `from`, with the check of what was read before it, checked `whole` or not. */
export interface ReadRequest {
  readonly from: number;
  readonly check?: string;
  readonly whole: boolean;
}

/** The open run's file as the page read it. */
export class ReadPosition {
  /** Where the next read starts: after the last whole line read. */
  private next = 0;
  private check = "";
  private settled = true;
  /** The file's size and stamp as the list said when it was last read, and its first line's fingerprint. */
  private size = 0;
  private headHash = "";
  private stamp = "";

  /** Whether the file may hold something the page does not show: it changed, or it was read while changing. */
  changed(file: FileState): boolean {
    return file.size !== this.size || file.stamp !== this.stamp || this.replaced(file) || !this.settled;
  }

  /** The read that brings the page up to date with `file`. */
  request(file: FileState): ReadRequest {
    if (this.next === 0 || file.size < this.next || this.replaced(file)) return { from: 0, whole: false };
    return { from: this.next, check: this.check, whole: file.size <= this.size };
  }

  /**
   * Takes `read`, made for `file`: whether the run is another one than the one read before (it was read from
   * its start, with another first line than before).
   */
  took(read: FileRead, file: FileState): boolean {
    let other = false;
    if (read.from === 0) {
      other = this.headHash !== "" && read.headHash !== "" && read.headHash !== this.headHash;
      this.headHash = read.headHash;
    }
    this.next = read.next;
    this.check = read.check;
    this.settled = read.settled;
    this.size = file.size;
    this.stamp = file.stamp;
    return other;
  }

  /** Whether the file is another one than the one read: its first line is not the same. */
  private replaced(file: FileState): boolean {
    return this.headHash !== "" && file.headHash !== "" && file.headHash !== this.headHash;
  }
}
