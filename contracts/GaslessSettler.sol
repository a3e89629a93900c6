// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @notice The part of Permit2's SignatureTransfer this contract calls.
interface ISignatureTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external;

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

/// @title GaslessSettler
/// @notice Settles a gasless swap in one transaction: pulls the user's input through Permit2 (the
///         user signed a permit naming this contract as spender), pays the gasless fee in the
///         input token, swaps the rest through the swap executor and checks that the receiver got
///         at least minAmountOut. The user never sends a transaction except the one-time Permit2
///         approval of the input token.
/// @dev    The Permit2 nonce is the commitment to the whole settlement: its upper 248 bits (the
///         bitmap word) must equal `nonceWord(s)`, a hash of every field the signature does not
///         already bind (tokenOut, minAmountOut, receiver, feeAmount, the executor and the exact
///         executor call) plus the owner, input, amount and deadline. The user signs the nonce, so
///         a signature runs exactly the settlement it was quoted for and nothing else, from any
///         caller: no caller is privileged, and a settlement that reverted leaves a permit that
///         can only be retried as signed (or cancelled by its owner through Permit2's
///         invalidateUnorderedNonces). The low 8 bits (the bit in the word) are free, so the
///         service keeps nonces unique even for two identical settlements.
///         Mode 3 still carries its SwapWitness (the typed data of the client contract).
contract GaslessSettler is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    bytes32 public constant SWAP_WITNESS_TYPEHASH =
        keccak256("SwapWitness(address tokenOut,uint256 minAmountOut,address receiver,uint256 feeAmount)");
    /// @dev Permit2 appends this to "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,".
    /// @dev Domain tag of the settlement commitment carried in the Permit2 nonce.
    bytes32 public constant SETTLEMENT_COMMITMENT_TAG = keccak256("GaslessSettler.Settlement.v1");
    string public constant WITNESS_TYPE_STRING =
        "SwapWitness witness)SwapWitness(address tokenOut,uint256 minAmountOut,address receiver,uint256 feeAmount)TokenPermissions(address token,uint256 amount)";

    /// @notice One settlement; `executorData` is the call into the swap executor, which pulls
    ///         `amountIn - feeAmount` of tokenIn from this contract and pays `receiver` directly.
    struct Settlement {
        address owner;
        address tokenIn;
        uint256 amountIn;
        uint256 nonce;
        uint256 deadline;
        address tokenOut; // address(0) for native output
        uint256 minAmountOut;
        address receiver;
        uint256 feeAmount;
        bytes executorData;
    }

    ISignatureTransfer public immutable permit2;
    address public executor;
    address public feeRecipient;

    event ExecutorSet(address executor);
    event FeeRecipientSet(address feeRecipient);
    event GaslessSwap(
        address indexed owner,
        address indexed receiver,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 feeAmount,
        uint256 amountOut,
        uint256 nonce
    );

    error SettlementNotSigned(uint256 nonce, uint256 expectedWord);
    error FeeExceedsInput(uint256 feeAmount, uint256 amountIn);
    error InsufficientOutput(uint256 received, uint256 minAmountOut);
    error ExecutorNotSet();

    constructor(address permit2_, address owner_) Ownable(owner_) {
        permit2 = ISignatureTransfer(permit2_);
    }

    function setExecutor(address executor_) external onlyOwner {
        executor = executor_;
        emit ExecutorSet(executor_);
    }

    function setFeeRecipient(address feeRecipient_) external onlyOwner {
        feeRecipient = feeRecipient_;
        emit FeeRecipientSet(feeRecipient_);
    }

    /// @notice The Permit2 nonce word (nonce >> 8) a permit must carry to settle `s`.
    function nonceWord(Settlement calldata s) public view returns (uint256) {
        return uint248(
            uint256(
                keccak256(
                    abi.encode(
                        SETTLEMENT_COMMITMENT_TAG,
                        address(this),
                        executor,
                        s.owner,
                        s.tokenIn,
                        s.amountIn,
                        s.deadline,
                        s.tokenOut,
                        s.minAmountOut,
                        s.receiver,
                        s.feeAmount,
                        keccak256(s.executorData)
                    )
                )
            )
        );
    }

    /// @notice Acquisition mode 2: PermitTransferFrom signed by `s.owner` with this contract as spender.
    function settle(Settlement calldata s, bytes calldata signature) external nonReentrant returns (uint256 amountOut) {
        _checkSettlement(s);
        permit2.permitTransferFrom(_permit(s), _transferDetails(s), s.owner, signature);
        return _swap(s);
    }

    /// @notice Acquisition mode 3: PermitWitnessTransferFrom whose witness is the SwapWitness of `s`.
    function settleWithWitness(Settlement calldata s, bytes calldata signature) external nonReentrant returns (uint256 amountOut) {
        _checkSettlement(s);
        bytes32 witness = keccak256(abi.encode(SWAP_WITNESS_TYPEHASH, s.tokenOut, s.minAmountOut, s.receiver, s.feeAmount));
        permit2.permitWitnessTransferFrom(_permit(s), _transferDetails(s), s.owner, witness, WITNESS_TYPE_STRING, signature);
        return _swap(s);
    }

    function _checkSettlement(Settlement calldata s) private view {
        if (s.feeAmount >= s.amountIn) revert FeeExceedsInput(s.feeAmount, s.amountIn);
        if (executor == address(0)) revert ExecutorNotSet();
        uint256 word = nonceWord(s);
        if (s.nonce >> 8 != word) revert SettlementNotSigned(s.nonce, word);
    }

    function _permit(Settlement calldata s) private pure returns (ISignatureTransfer.PermitTransferFrom memory) {
        return ISignatureTransfer.PermitTransferFrom({
            permitted: ISignatureTransfer.TokenPermissions({token: s.tokenIn, amount: s.amountIn}),
            nonce: s.nonce,
            deadline: s.deadline
        });
    }

    function _transferDetails(Settlement calldata s) private view returns (ISignatureTransfer.SignatureTransferDetails memory) {
        return ISignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: s.amountIn});
    }

    function _swap(Settlement calldata s) private returns (uint256 amountOut) {
        IERC20 tokenIn = IERC20(s.tokenIn);
        if (s.feeAmount > 0) tokenIn.safeTransfer(feeRecipient, s.feeAmount);
        uint256 swapAmount = s.amountIn - s.feeAmount;
        uint256 before = _balanceOf(s.tokenOut, s.receiver);

        // The allowance lives only for this call, so nothing can be pulled from here later.
        tokenIn.forceApprove(executor, swapAmount);
        (bool ok, bytes memory ret) = executor.call(s.executorData);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        tokenIn.forceApprove(executor, 0);
        // Whatever the executor did not take goes back to its owner rather than staying here.
        uint256 leftover = tokenIn.balanceOf(address(this));
        if (leftover > 0) tokenIn.safeTransfer(s.owner, leftover);

        amountOut = _balanceOf(s.tokenOut, s.receiver) - before;
        if (amountOut < s.minAmountOut) revert InsufficientOutput(amountOut, s.minAmountOut);
        emit GaslessSwap(s.owner, s.receiver, s.tokenIn, s.tokenOut, s.amountIn, s.feeAmount, amountOut, s.nonce);
    }

    function _balanceOf(address token, address account) private view returns (uint256) {
        return token == address(0) ? account.balance : IERC20(token).balanceOf(account);
    }
}
