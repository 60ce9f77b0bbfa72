//! The net hisha ships, embedded in the binary (`include_bytes!`, so that the engine needs no file
//! beside it): `nnue/nn.bin.zlib`, a YaneuraOu-format HalfKP 64x2-16-16 `nn.bin` compressed with
//! zlib (16 MB of 16-bit weights become 8 MB; inflating takes some 50 ms, once, the first time the
//! built-in evaluation is asked for). How it was made, and its matches against the linear
//! evaluation, are in `nnue/README.md`. The USI option `EvalFile`'s default (`builtin`) and
//! `hisha bench` use it; `EvalFile linear` selects the linear evaluation instead.

use super::network::Network;
use std::sync::{Arc, OnceLock};

/// The embedded net, zlib-compressed.
const EMBEDDED_ZLIB: &[u8] = include_bytes!("../../../nnue/nn.bin.zlib");

/// The built-in net, read once; `None` only if the embedded bytes cannot be read (logged), and then
/// the linear evaluation is used.
pub fn builtin() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| match read(EMBEDDED_ZLIB) {
        Ok(net) => Some(Arc::new(net)),
        Err(why) => {
            log::error!("the built-in net cannot be read ({why}): the linear evaluation is used");
            None
        }
    })
    .clone()
}

/// Inflates and reads a zlib-compressed `nn.bin`.
fn read(zlib: &[u8]) -> Result<Network, String> {
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib(zlib).map_err(|e| format!("inflating: {e}"))?;
    Network::load(&bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn the_built_in_net_is_the_shipped_halfkp_64x2_16_16() {
        let net = builtin().expect("the embedded net reads");
        let shipped = super::super::Architecture { features: super::super::FeatureSet::HalfKP, l1: 64, l2: 16, l3: 16 };
        assert_eq!(net.architecture(), shipped);
        // A net, not the linear evaluation: the two disagree on the start position.
        let start = Position::startpos();
        assert_ne!(net.evaluate_position(&start), crate::eval::evaluate(&start));
    }

    #[test]
    fn damaged_embedded_bytes_are_an_error_not_a_panic() {
        let mut broken = EMBEDDED_ZLIB[..EMBEDDED_ZLIB.len() / 2].to_vec();
        assert!(read(&broken).is_err(), "a truncated stream");
        broken = EMBEDDED_ZLIB.to_vec();
        broken[100] ^= 0xff;
        assert!(read(&broken).is_err(), "a corrupted stream");
    }
}
