//! The exact logical-to-physical page map at 4 KiB granularity, and its reverse.
//!
//! Physical space is counted in slots: one per 4 KiB unit, or, on a compressing controller,
//! `slots_per_unit` smaller ones, so a unit that compresses takes fewer. Memory per 4 KiB of raw
//! NAND: 4 bytes of `lpa_of_ppa` per slot, plus 4 bytes of `ppa_of_lpa` per user unit (and 1 byte
//! of compressed length when compressing).

use crate::config::DriveConfig;
use crate::units::NONE;

pub struct PageMap {
    /// Logical 4 KiB unit -> first physical slot holding it, or NONE if never written.
    ppa_of_lpa: Vec<u32>,
    /// Physical slot -> logical unit starting there, or NONE (also for a unit's later slots).
    /// Stale entries are detected by checking `ppa_of_lpa[lpa] == ppa`, so invalidation needs
    /// no second write here.
    lpa_of_ppa: Vec<u32>,
    /// Slots each logical unit occupies (compressing controllers only; otherwise empty: 1).
    len_of_lpa: Vec<u8>,
    slots_per_unit: u32,
}

impl PageMap {
    /// Nothing mapped.
    pub fn new(user_units: u64, raw_slots: u64, slots_per_unit: u32) -> Self {
        PageMap {
            ppa_of_lpa: vec![NONE; user_units as usize],
            lpa_of_ppa: vec![NONE; raw_slots as usize],
            len_of_lpa: if slots_per_unit > 1 { vec![0; user_units as usize] } else { Vec::new() },
            slots_per_unit,
        }
    }

    /// Bytes these tables take for `drive`, before building them.
    pub fn table_bytes(drive: &DriveConfig) -> u64 {
        let slots_per_unit = drive.controller.slots_per_unit() as u64;
        let user = drive.user_units();
        let lengths = if slots_per_unit > 1 { user } else { 0 };
        user * 4 + drive.geometry.raw_units() * slots_per_unit * 4 + lengths
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.ppa_of_lpa.capacity() * 4 + self.lpa_of_ppa.capacity() * 4 + self.len_of_lpa.capacity()) as u64
    }

    pub fn slots_per_unit(&self) -> u32 {
        self.slots_per_unit
    }

    /// First slot holding `lpa`, or NONE.
    #[inline]
    pub fn ppa_of(&self, lpa: u32) -> u32 {
        self.ppa_of_lpa[lpa as usize]
    }

    /// Slots `lpa`'s data occupies.
    #[inline]
    pub fn len_of(&self, lpa: u32) -> u32 {
        if self.slots_per_unit == 1 {
            1
        } else {
            self.len_of_lpa[lpa as usize] as u32
        }
    }

    /// The unit whose current data starts at slot `ppa`, if any (a stale or empty slot: None).
    #[inline]
    pub fn live_at(&self, ppa: u32) -> Option<u32> {
        let lpa = self.lpa_of_ppa[ppa as usize];
        (lpa != NONE && self.ppa_of_lpa[lpa as usize] == ppa).then_some(lpa)
    }

    /// The unit recorded at slot `ppa`, live or stale (NONE if none).
    #[inline]
    pub fn recorded_at(&self, ppa: u32) -> u32 {
        self.lpa_of_ppa[ppa as usize]
    }

    /// `lpa` now lives at `ppa`, `len` slots long.
    #[inline]
    pub fn set(&mut self, lpa: u32, ppa: u32, len: u32) {
        self.ppa_of_lpa[lpa as usize] = ppa;
        self.lpa_of_ppa[ppa as usize] = lpa;
        if self.slots_per_unit > 1 {
            self.len_of_lpa[lpa as usize] = len as u8;
        }
    }

    /// `lpa` is no longer mapped.
    #[inline]
    pub fn unmap(&mut self, lpa: u32) {
        self.ppa_of_lpa[lpa as usize] = NONE;
    }

    /// Slots `first..first + len` hold nothing (their block was erased).
    pub fn clear(&mut self, first: u32, len: u32) {
        self.lpa_of_ppa[first as usize..(first + len) as usize].fill(NONE);
    }

    /// Every mapped unit and its first slot (for invariant checks).
    pub fn mapped(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ppa_of_lpa.iter().enumerate().filter(|(_, &p)| p != NONE).map(|(l, &p)| (l as u32, p))
    }

    /// Load hint for `lpa`'s entry (a write to it is coming).
    #[inline]
    pub fn prefetch_entry(&self, lpa: u32) {
        super::prefetch(self.ppa_of_lpa.as_ptr().wrapping_add(lpa as usize));
    }
}
