//! A RAID 0 array of identical drives behind a shared host bus adapter [004].
//!
//! The host issues against the array's address space; the stripe deals it to the members in
//! `stripe_kib` chunks (chunk `s` lies on member `s % N`, in row `s / N` of that member), so a
//! command is split at chunk boundaries into one piece per chunk, and completes when its last
//! piece does. Each piece crosses the shared link (the adapter and the backplane: one pipe for
//! all members, `hba_command_ns` plus its payload at `hba_mb_s`, first come first served), then
//! its member's own path (`port_command_ns`, one command at a time), then reaches its member, a
//! whole `Drive` with its own seed. A read's data is charged to the shared link with its command:
//! what limits an array is the pipe's capacity, not the order of its frames. Per-second figures
//! add up the members' counters; their states are summed or combined (see `FIELD_INFO`).

use crate::command::{Completion, Op, Request};
use crate::config::{RaidConfig, RunConfig};
use crate::drive::power::{CapacitorState, PowerCutReport};
use crate::drive::{Counters, Drive, Status};
use crate::units::{ps_per_byte, ConfigError, UNIT_BYTES};

/// The seed of member `i`: the run's own for the first, a scrambled one for each other (so a
/// one-drive array is the plain drive, and members draw different streams).
pub fn member_seed(seed: u64, i: u32) -> u64 {
    if i == 0 {
        return seed;
    }
    let mut z = seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 27)
}

/// One member's share of a host command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub member: u32,
    pub req: Request,
}

/// Where the array's bytes live: the stripe's arithmetic, apart from any timing.
#[derive(Debug, Clone, Copy)]
pub struct Stripe {
    pub drives: u32,
    pub stripe_bytes: u64,
}

impl Stripe {
    pub fn new(raid: &RaidConfig) -> Self {
        Stripe { drives: raid.drives, stripe_bytes: raid.stripe_units() * UNIT_BYTES }
    }

    /// The member holding byte `offset` of the array, and where it is on that member.
    #[inline]
    pub fn locate(&self, offset: u64) -> (u32, u64) {
        let chunk = offset / self.stripe_bytes;
        let n = self.drives as u64;
        ((chunk % n) as u32, (chunk / n) * self.stripe_bytes + offset % self.stripe_bytes)
    }

    /// The array's 4 KiB unit at `unit` of member `member` (the inverse of `locate`).
    pub fn array_unit(&self, member: u32, unit: u64) -> u64 {
        let offset = unit * UNIT_BYTES;
        let (row, within) = (offset / self.stripe_bytes, offset % self.stripe_bytes);
        ((row * self.drives as u64 + member as u64) * self.stripe_bytes + within) / UNIT_BYTES
    }

    /// Calls `each` with the pieces of `req`, in order of the array's address: one per chunk it
    /// touches (a one-member array passes the command on whole).
    #[inline]
    pub fn split(&self, req: Request, mut each: impl FnMut(Piece)) {
        if self.drives == 1 {
            each(Piece { member: 0, req });
            return;
        }
        let (mut at, end) = (req.offset_bytes, req.offset_bytes + req.bytes as u64);
        loop {
            let chunk_end = (at / self.stripe_bytes + 1) * self.stripe_bytes;
            let to = chunk_end.min(end);
            let (member, offset) = self.locate(at);
            each(Piece { member, req: Request { tag: req.tag, ..Request::at(req.op, offset, (to - at) as u32) } });
            if to >= end {
                return;
            }
            at = to;
        }
    }
}

pub struct Array {
    members: Vec<Drive>,
    stripe: Stripe,
    /// The shared link: when it is next free, ns; its time per byte, ps (0: no shared limit),
    /// and per command, ns.
    hba_free_ns: u64,
    hba_ps_per_byte: u64,
    hba_command_ns: u64,
    /// Each member's own path: when it is next free, ns, and its time per command.
    port_free_ns: Vec<u64>,
    port_command_ns: u64,
}

impl Array {
    /// The members, secure-erased, each built for `cfg` with its own seed.
    pub fn new(cfg: &RunConfig, raid: &RaidConfig) -> Result<Self, ConfigError> {
        let members = (0..raid.drives)
            .map(|i| Drive::new(&RunConfig { seed: member_seed(cfg.seed, i), ..cfg.clone() }))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Array {
            members,
            stripe: Stripe::new(raid),
            hba_free_ns: 0,
            hba_ps_per_byte: ps_per_byte(raid.hba_mb_s),
            hba_command_ns: raid.hba_command_ns,
            port_free_ns: vec![0; raid.drives as usize],
            port_command_ns: raid.port_command_ns,
        })
    }

    pub fn members(&self) -> &[Drive] {
        &self.members
    }

    pub fn members_mut(&mut self) -> &mut [Drive] {
        &mut self.members
    }

    pub fn memory_bytes(&self) -> u64 {
        self.members.iter().map(|d| d.memory_bytes()).sum::<u64>() + self.port_free_ns.capacity() as u64 * 8
    }

    /// The host issues `req` at `issue_ns`: each piece crosses the shared link and its member's
    /// path, then its member takes it. Returns when the last piece completes, and how: done if
    /// every member took its piece, else the first refusal. (Kept out of the bench's step, so
    /// the single drive's path there is compiled as it is without arrays.)
    #[inline(never)]
    pub fn submit(&mut self, req: Request, issue_ns: u64) -> (u64, Completion) {
        let (mut done_ns, mut result) = (issue_ns, Completion::Done);
        let stripe = self.stripe;
        stripe.split(req, |p| {
            let payload = if p.req.op == Op::Trim { 0 } else { p.req.bytes as u64 };
            let mut t = issue_ns;
            if self.hba_ps_per_byte > 0 || self.hba_command_ns > 0 {
                // First come, first served: the host issues in time order, so arrivals do too.
                t = t.max(self.hba_free_ns) + self.hba_command_ns + payload * self.hba_ps_per_byte / 1000;
                self.hba_free_ns = t;
            }
            let port = &mut self.port_free_ns[p.member as usize];
            t = t.max(*port) + self.port_command_ns;
            *port = t;
            let (done, completion) = self.members[p.member as usize].submit(p.req, t);
            done_ns = done_ns.max(done);
            if result.accepted() && !completion.accepted() {
                result = completion;
            }
        });
        (done_ns, result)
    }

    /// Power fails for the whole array at `at_ns` (one supply feeds every member): each member
    /// flushes with its own capacitors and rebuilds its own map, in parallel. One report for the
    /// array: writes by the array's address, their sequence numbers made unique across members
    /// (`seq * N + member` keeps each member's order), counts and energies added, the rebuild of
    /// the slowest member. Returns it and when the array takes commands again.
    pub fn power_cut(&mut self, at_ns: u64) -> (PowerCutReport, u64) {
        let (n, stripe) = (self.members.len() as u64, self.stripe);
        let mut all = PowerCutReport {
            at_ns,
            acknowledged: Vec::new(),
            durable: Vec::new(),
            acknowledged_writes_lost: 0,
            flushed_units: 0,
            energy_needed_uj: 0,
            energy_stored_uj: 0,
            rebuild_ms: 0.0,
        };
        let mut resume_ns = at_ns;
        for (m, drive) in self.members.iter_mut().enumerate() {
            let (r, resume) = drive.power_cut(at_ns);
            let to_array = |&(unit, seq): &(u64, u64)| (stripe.array_unit(m as u32, unit), seq * n + m as u64);
            all.acknowledged.extend(r.acknowledged.iter().map(to_array));
            all.durable.extend(r.durable.iter().map(to_array));
            all.acknowledged_writes_lost += r.acknowledged_writes_lost;
            all.flushed_units += r.flushed_units;
            all.energy_needed_uj += r.energy_needed_uj;
            all.energy_stored_uj += r.energy_stored_uj;
            all.rebuild_ms = all.rebuild_ms.max(r.rebuild_ms);
            resume_ns = resume_ns.max(resume);
        }
        all.acknowledged.sort_unstable_by_key(|&(_, seq)| seq);
        all.durable.sort_unstable_by_key(|&(_, seq)| seq);
        (all, resume_ns)
    }

    /// Every member's counters, added up.
    pub fn counters(&self) -> Counters {
        let mut sum = Counters::default();
        for c in self.members.iter().map(|d| d.counters()) {
            sum.gc_moves += c.gc_moves;
            sum.erases += c.erases;
            sum.nand_write_bytes += c.nand_write_bytes;
            sum.map_write_bytes += c.map_write_bytes;
            sum.host_write_bytes += c.host_write_bytes;
            sum.rmw_reads += c.rmw_reads;
            sum.map_lookups += c.map_lookups;
            sum.map_misses += c.map_misses;
            sum.map_hmb_hits += c.map_hmb_hits;
            sum.folded_units += c.folded_units;
            sum.cache_host_pages += c.cache_host_pages;
            sum.cache_slc_pages += c.cache_slc_pages;
            sum.zone_resets += c.zone_resets;
            for (s, b) in sum.die_busy_ns.iter_mut().zip(c.die_busy_ns) {
                *s += b;
            }
        }
        sum
    }

    /// The members' states at `t_ns`: counts summed; erase counts as the lowest and highest of
    /// any member; flags raised if any member raises them (buffering only if all buffer); the
    /// capacitors of the first member that is not healthy; the hottest member's temperature and
    /// the deepest throttle step.
    pub fn status(&self, t_ns: u64) -> Status {
        let mut all = self.members.iter().map(|d| d.status(t_ns));
        let mut s = all.next().expect("an array has a member");
        for m in all {
            s.free_blocks += m.free_blocks;
            s.erase_count_min = s.erase_count_min.min(m.erase_count_min);
            s.erase_count_max = s.erase_count_max.max(m.erase_count_max);
            s.retired_blocks += m.retired_blocks;
            s.read_only |= m.read_only;
            s.buffer_units += m.buffer_units;
            s.write_buffering &= m.write_buffering;
            if s.capacitors == CapacitorState::Healthy {
                s.capacitors = m.capacitors;
            }
            s.gc_active_dies += m.gc_active_dies;
            s.gc_boost |= m.gc_boost;
            s.slc_free_units += m.slc_free_units;
            s.slc_data_units += m.slc_data_units;
            s.slc_blocks += m.slc_blocks;
            s.temperature_c = s.temperature_c.max(m.temperature_c);
            s.throttle_step = s.throttle_step.max(m.throttle_step);
            s.open_zones += m.open_zones;
            s.active_zones += m.active_zones;
            s.full_zones += m.full_zones;
        }
        s
    }
}
