//! Every structural invariant of the FTL, checked from scratch: O(raw units), for tests.

use super::blocks::{BlockState, Blocks, Mode};
use super::map::PageMap;
use super::wear::Wear;
use super::Stream;
use crate::config::MAX_HANDLES;

/// Returns a description of the first violation.
pub fn check(map: &PageMap, blocks: &Blocks, wear: &Wear) -> Result<(), String> {
    check_map(map, blocks)?;
    check_valid_counts(map, blocks)?;
    check_buckets(blocks)?;
    check_free_pools(blocks)?;
    check_slc_blocks(blocks)?;
    check_tags(blocks)?;
    check_wear(blocks, wear)
}

/// On a drive with placement handles, each stream's open block carries the stream's tag, so
/// the data each block took is its handle's (or, in the shared GC stream's blocks, `MIXED`).
fn check_tags(blocks: &Blocks) -> Result<(), String> {
    if blocks.tag.is_empty() {
        return Ok(());
    }
    let streams = (0..MAX_HANDLES as u8).flat_map(|h| [Stream::handle(h), Stream::gc_of(h)]);
    for stream in streams {
        for die in 0..blocks.dies() {
            if let Some(b) = blocks.open_block(die, stream) {
                let (tag, want) = (blocks.tag[b as usize], blocks.tag_of_stream(stream));
                if tag != want {
                    return Err(format!(
                        "block {} open for {:?} on die {} is tagged {} (want {})",
                        b, stream, die, tag, want
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Each die counts the blocks in SLC mode it has in use.
fn check_slc_blocks(blocks: &Blocks) -> Result<(), String> {
    for die in 0..blocks.dies() {
        let first = die * blocks.blocks_per_die;
        let in_use = (first..first + blocks.blocks_per_die)
            .filter(|&b| {
                let state = blocks.state[b as usize];
                blocks.mode[b as usize] == Mode::Slc && state != BlockState::Free && state != BlockState::Retired
            })
            .count() as u32;
        if in_use != blocks.slc_blocks(die) {
            return Err(format!("die {} counts {} SLC blocks but has {}", die, blocks.slc_blocks(die), in_use));
        }
    }
    Ok(())
}

/// Each mapped unit points at a slot that says it holds that unit, its slots in one stripe.
fn check_map(map: &PageMap, blocks: &Blocks) -> Result<(), String> {
    let stripe = |ppa: u32| ppa / blocks.slots_per_program;
    for (lpa, ppa) in map.mapped() {
        if map.recorded_at(ppa) != lpa {
            return Err(format!("lpa {} -> ppa {} but that slot holds {}", lpa, ppa, map.recorded_at(ppa)));
        }
        let len = map.len_of(lpa);
        if len == 0 || len > map.slots_per_unit() || stripe(ppa) != stripe(ppa + len - 1) {
            return Err(format!("lpa {} at slot {} has {} slots, crossing a stripe or out of range", lpa, ppa, len));
        }
    }
    Ok(())
}

/// Valid counts match the live slots per block; free blocks hold nothing.
fn check_valid_counts(map: &PageMap, blocks: &Blocks) -> Result<(), String> {
    let spb = blocks.slots_per_block;
    let mut live_total = 0u64;
    for b in 0..blocks.total() {
        let (mut live, mut live_slots) = (0u32, 0u32);
        for p in b * spb..(b + 1) * spb {
            if let Some(l) = map.live_at(p) {
                live += 1;
                live_slots += map.len_of(l);
            }
        }
        if live_slots != blocks.valid[b as usize] as u32 {
            return Err(format!("block {} valid count {} but {} live slots", b, blocks.valid[b as usize], live_slots));
        }
        if blocks.state[b as usize] == BlockState::Free && live != 0 {
            return Err(format!("free block {} holds {} live units", b, live));
        }
        live_total += live as u64;
    }
    let mapped = map.mapped().count() as u64;
    if live_total != mapped {
        return Err(format!("{} mapped LPAs but {} live units", mapped, live_total));
    }
    Ok(())
}

/// Bucket lists hold exactly the closed blocks, each under its valid count.
fn check_buckets(blocks: &Blocks) -> Result<(), String> {
    let mut listed = 0usize;
    for die in 0..blocks.dies() {
        for v in 0..=blocks.slots_per_block {
            for b in blocks.buckets.listed(die, v) {
                if blocks.state[b as usize] != BlockState::Closed || blocks.valid[b as usize] as u32 != v {
                    return Err(format!("block {} listed under valid {} wrongly", b, v));
                }
                listed += 1;
            }
        }
    }
    let closed = blocks.state.iter().filter(|&&s| s == BlockState::Closed).count();
    if listed != closed {
        return Err(format!("{} closed blocks but {} listed", closed, listed));
    }
    Ok(())
}

/// Free pools hold exactly the free blocks, each in its own die.
fn check_free_pools(blocks: &Blocks) -> Result<(), String> {
    let mut pooled = 0u64;
    for die in 0..blocks.dies() {
        for b in blocks.free_pool(die).blocks() {
            if blocks.state[b as usize] != BlockState::Free || blocks.die_of_block(b) != die {
                return Err(format!("block {} in die {}'s free pool wrongly", b, die));
            }
            pooled += 1;
        }
    }
    if pooled != blocks.free_blocks() {
        return Err(format!("free count {} but {} in lists", blocks.free_blocks(), pooled));
    }
    let free_state = blocks.state.iter().filter(|&&s| s == BlockState::Free).count() as u64;
    if free_state != pooled {
        return Err(format!("{} free blocks but {} pooled", free_state, pooled));
    }
    Ok(())
}

/// Retired blocks are counted and nowhere else; erase counts and their kept range agree.
fn check_wear(blocks: &Blocks, wear: &Wear) -> Result<(), String> {
    let retired = blocks.state.iter().filter(|&&s| s == BlockState::Retired).count() as u64;
    let retired_per_die: u64 = (0..blocks.dies()).map(|d| wear.retired_on_die(d) as u64).sum();
    if retired != wear.retired_blocks() || retired_per_die != wear.retired_blocks() {
        return Err(format!(
            "{} retired blocks but counted {} ({} by die)",
            retired,
            wear.retired_blocks(),
            retired_per_die
        ));
    }
    let counts = wear.erase_counts();
    let pe = wear.pe_cycles();
    for (b, &c) in counts.iter().enumerate() {
        if c > pe || (c == pe) != (blocks.state[b] == BlockState::Retired) {
            return Err(format!("block {} erased {} times of {} but state {:?}", b, c, pe, blocks.state[b]));
        }
    }
    let min = counts.iter().copied().min().unwrap_or(0);
    let max = counts.iter().copied().max().unwrap_or(0);
    let at_min = counts.iter().filter(|&&c| c == min).count() as u64;
    let (kmin, kmax, kat) = wear.kept_range();
    if (min, max, at_min) != (kmin, kmax, kat) {
        return Err(format!("erase counts {}..{} ({} at min) but kept {}..{} ({})", min, max, at_min, kmin, kmax, kat));
    }
    Ok(())
}
