//! The forward map by program stripe, for drives with an SLC cache: a whole-drive fill from a
//! secure erase writes every unit, and a unit-by-unit table would cost 4 bytes per unit where
//! one entry per stripe does. Host pages and folded stripes land whole and in order, so most
//! stripes are one slot number; a stripe written otherwise (random writes, GC of churned data)
//! keeps its units one by one in `split`.

use super::changes::Changes;
use super::FillLayout;
use crate::units::{Divisor, NONE};

/// A stripe whose units are held one by one in `split`.
const SPLIT: u32 = NONE - 1;
/// Logical stripes per page of the table (16 KiB of entries).
const PAGE: u32 = 4096;

/// The stripe being written in order from its first unit: its units `0..done` are at
/// `first..`, the rest still where the table says (until it is complete or something else is
/// written).
#[derive(Debug, Clone, Copy)]
struct Open {
    stripe: u32,
    first: u32,
    done: u32,
}

const NO_OPEN: Open = Open { stripe: NONE, first: NONE, done: 0 };

pub(super) struct Stripes {
    /// Per logical stripe (`lpa / units_per_stripe`): the slot of its first unit when its units
    /// sit in order from the start of one program stripe, NONE when none is mapped, SPLIT when
    /// they are in `split`. Pages are allocated as their stripes are first written; a page not
    /// allocated is still the fill's formula.
    pages: Vec<Option<Box<[u32]>>>,
    pub split: Changes,
    open: Open,
    per_stripe: Divisor,
    user_units: u32,
}

impl Stripes {
    pub fn new(user_units: u32, units_per_stripe: u32) -> Self {
        let stripes = user_units.div_ceil(units_per_stripe);
        Stripes {
            pages: (0..stripes.div_ceil(PAGE)).map(|_| None).collect(),
            split: Changes::new(),
            open: NO_OPEN,
            per_stripe: Divisor::new(units_per_stripe),
            user_units,
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        let pages = self.pages.iter().flatten().count() as u64 * PAGE as u64 * 4;
        pages + self.pages.capacity() as u64 * 8 + self.split.memory_bytes()
    }

    /// Units of logical stripe `s` (the last may be short).
    #[inline]
    fn units_in(&self, s: u32) -> u32 {
        self.per_stripe.get().min(self.user_units - s * self.per_stripe.get())
    }

    #[inline]
    fn entry(&self, s: u32) -> Option<u32> {
        self.pages[(s / PAGE) as usize].as_ref().map(|p| p[(s % PAGE) as usize])
    }

    fn entry_mut(&mut self, s: u32, fill: Option<FillLayout>) -> &mut u32 {
        let page = (s / PAGE) as usize;
        if self.pages[page].is_none() {
            self.pages[page] = Some(self.page_from(page as u32, fill));
        }
        &mut self.pages[page].as_mut().expect("allocated")[(s % PAGE) as usize]
    }

    /// A page of the table as the fill left it (a stripe the fill wrote part of: split).
    #[cold]
    fn page_from(&mut self, page: u32, fill: Option<FillLayout>) -> Box<[u32]> {
        let mut entries = vec![NONE; PAGE as usize].into_boxed_slice();
        let Some(f) = fill else { return entries };
        let ups = self.per_stripe.get();
        let stripes = self.user_units.div_ceil(ups);
        for (k, e) in entries.iter_mut().enumerate() {
            let s = page * PAGE + k as u32;
            if s >= stripes {
                break;
            }
            let (first, end) = (s * ups, s * ups + self.units_in(s));
            if end <= f.units {
                *e = f.ppa_of(first);
            } else if first < f.units {
                *e = SPLIT;
                for lpa in first..f.units {
                    self.split.insert(lpa, f.ppa_of(lpa));
                }
            }
        }
        entries
    }

    /// First slot holding `lpa`, or NONE. (Never inlined: the unit map's callers stay as small
    /// as they were.)
    #[inline(never)]
    pub fn ppa_of(&self, lpa: u32, fill: Option<FillLayout>) -> u32 {
        let (s, i) = (self.per_stripe.quotient(lpa), self.per_stripe.remainder(lpa));
        if s == self.open.stripe && i < self.open.done {
            return self.open.first + i;
        }
        match self.entry(s) {
            None => fill.map_or(NONE, |f| f.ppa_of(lpa)),
            Some(NONE) => NONE,
            Some(SPLIT) => self.split.get(lpa).unwrap_or(NONE),
            Some(first) => first + i,
        }
    }

    /// `lpa` now lives at `ppa` (NONE: unmapped).
    #[inline(never)]
    pub fn set(&mut self, lpa: u32, ppa: u32, fill: Option<FillLayout>) {
        let (s, i) = (self.per_stripe.quotient(lpa), self.per_stripe.remainder(lpa));
        let open = self.open;
        if s == open.stripe && i == open.done && ppa == open.first + i {
            // The next unit of the stripe being written in order.
            self.open.done += 1;
            if self.open.done == self.units_in(s) {
                self.open = NO_OPEN;
                self.whole(s, open.first, fill);
            }
            return;
        }
        self.settle_open(fill);
        if i == 0 && ppa != NONE && self.per_stripe.remainder(ppa) == 0 {
            // A stripe's first unit at the start of a program stripe: maybe the rest follows.
            if self.units_in(s) == 1 {
                self.whole(s, ppa, fill);
            } else {
                self.open = Open { stripe: s, first: ppa, done: 1 };
            }
            return;
        }
        self.split_stripe(s, fill);
        if ppa == NONE {
            self.split.remove(lpa);
        } else {
            self.split.insert(lpa, ppa);
        }
    }

    /// True if none of units `lpa..lpa + n`, all in one logical stripe, is mapped, as far as
    /// one look at their stripe tells (false: ask unit by unit).
    #[inline]
    pub fn none_mapped(&self, lpa: u32, n: u32, fill: Option<FillLayout>) -> bool {
        let (s, i) = (self.per_stripe.quotient(lpa), self.per_stripe.remainder(lpa));
        if i + n > self.units_in(s) || (s == self.open.stripe && i < self.open.done) {
            return false;
        }
        match self.entry(s) {
            None => fill.is_none_or(|f| lpa >= f.units),
            Some(e) => e == NONE,
        }
    }

    /// `set` of units `lpa..lpa + n` at `ppa..` in turn when they continue the stripe being
    /// written in order, or start one at a program stripe's start (one update, not `n`); false,
    /// changing nothing, if they do neither.
    #[inline]
    pub fn set_run(&mut self, lpa: u32, ppa: u32, n: u32, fill: Option<FillLayout>) -> bool {
        let (s, i) = (self.per_stripe.quotient(lpa), self.per_stripe.remainder(lpa));
        if i + n > self.units_in(s) {
            return false;
        }
        let open = self.open;
        if s == open.stripe && i == open.done && ppa == open.first + i {
            self.open.done += n;
        } else if i == 0 && ppa != NONE && self.per_stripe.remainder(ppa) == 0 {
            // As `set` of its first unit: the stripe opens (the one open before is settled).
            self.settle_open(fill);
            self.open = Open { stripe: s, first: ppa, done: n };
        } else {
            return false;
        }
        if self.open.done == self.units_in(s) {
            self.open = NO_OPEN;
            self.whole(s, ppa - i, fill);
        }
        true
    }

    /// Stripe `s` is whole from slot `first`.
    fn whole(&mut self, s: u32, first: u32, fill: Option<FillLayout>) {
        if std::mem::replace(self.entry_mut(s, fill), first) == SPLIT {
            let lpa = s * self.per_stripe.get();
            for lpa in lpa..lpa + self.units_in(s) {
                self.split.remove(lpa);
            }
        }
    }

    /// The stripe being written in order was left part-way: its units go one by one.
    fn settle_open(&mut self, fill: Option<FillLayout>) {
        let open = std::mem::replace(&mut self.open, NO_OPEN);
        if open.stripe == NONE {
            return;
        }
        self.split_stripe(open.stripe, fill);
        let lpa = open.stripe * self.per_stripe.get();
        for i in 0..open.done {
            self.split.insert(lpa + i, open.first + i);
        }
    }

    /// Stripe `s`'s units, from here on, are held one by one.
    fn split_stripe(&mut self, s: u32, fill: Option<FillLayout>) {
        let e = self.entry_mut(s, fill);
        let first = std::mem::replace(e, SPLIT);
        if first != SPLIT && first != NONE {
            let lpa = s * self.per_stripe.get();
            for i in 0..self.units_in(s) {
                self.split.insert(lpa + i, first + i);
            }
        }
    }
}
