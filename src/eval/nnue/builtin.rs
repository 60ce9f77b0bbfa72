//! The net hisha ships, embedded in the binary (`include_bytes!`, so that the engine needs no file
//! beside it). There is none yet: no net trained so far beats the linear evaluation
//! (`nnue/README.md`), so the built-in evaluation is the linear one. Shipping a net is one line,
//! `const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../../nnue/nn.bin"));`; the USI
//! option `EvalFile`'s default (`builtin`) and `hisha bench` then use it, and the bench signature
//! changes once.

use super::network::Network;
use std::sync::{Arc, OnceLock};

/// The embedded `nn.bin`, if any.
const EMBEDDED: Option<&[u8]> = None;

/// The built-in net, read once; `None`: the built-in evaluation is the linear one.
pub fn builtin() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    let read = || {
        EMBEDDED.and_then(|bytes| match Network::load(bytes) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                log::error!("the built-in net cannot be read ({e}): the linear evaluation is used");
                None
            }
        })
    };
    NET.get_or_init(read).clone()
}
