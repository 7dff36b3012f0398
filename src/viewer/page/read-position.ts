// How far the page has read the open run's file, and how it asks for what the file gained. The list says
// each file's size, first line and stamp; a read says where its text starts, where the next one starts, a
// check of the bytes read (log-folder.ts checks them at the next read) and whether the file had settled.
// A file that grew is read from where the last whole line ended, the server checking the last bytes read
// (and the inode); one that did not grow (rewritten in place, touched) or whose last read was made while it
// changed is checked whole first, since two writes within one clock tick leave the stamp as it was. A file
// that shrank below what was read, or has another first line, is read from its start without a check.

/** What the list says of the open run's file. */
export interface FileState {
  readonly size: number;
  readonly head: string;
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
  /** The file's size, first line and stamp as the list said when it was last read. */
  private size = 0;
  private head = "";
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
      const newline = read.text.indexOf("\n");
      const head = newline === -1 ? "" : read.text.slice(0, newline);
      other = this.head !== "" && head !== this.head;
      this.head = head;
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
    return this.head !== "" && file.head !== "" && file.head !== this.head;
  }
}
